package org.phalanx.console;

import java.lang.reflect.UndeclaredThrowableException;
import java.net.ConnectException;
import javax.management.JMException;
import javax.management.JMRuntimeException;
import javax.management.MBeanException;
import javax.management.ReflectionException;
import javax.management.RuntimeErrorException;
import javax.management.RuntimeMBeanException;
import javax.management.RuntimeOperationsException;

/** Turns whatever a JMX call threw into the one line the console prints. */
final class Errors {
    private Errors() {
    }

    static String oneLine(Throwable t) {
        Throwable e = unwrap(t);
        String message = e.getMessage();
        if (e instanceof ConnectException || e instanceof java.rmi.ConnectException) {
            return "the controller's JMX connection was lost (" + message + ")";
        }
        if (message == null || message.isBlank()) {
            message = e.getClass().getSimpleName();
        }
        return message.replaceAll("\\s*\\R\\s*", "; ").trim();
    }

    /** The exception that says what went wrong, without JMX's and proxies' wrappers. */
    static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while (true) {
            Throwable inner = null;
            if (e instanceof UndeclaredThrowableException u) {
                inner = u.getUndeclaredThrowable();
            } else if (e instanceof RuntimeMBeanException r) {
                inner = r.getTargetException();
            } else if (e instanceof MBeanException m) {
                inner = m.getTargetException();
            } else if (e instanceof RuntimeErrorException r) {
                inner = r.getTargetError();
            } else if (e instanceof RuntimeOperationsException r) {
                inner = r.getTargetException();
            } else if (e instanceof ReflectionException r) {
                inner = r.getTargetException();
            } else if (e instanceof java.lang.reflect.InvocationTargetException i) {
                inner = i.getTargetException();
            } else if ((e instanceof JMException || e instanceof JMRuntimeException || e instanceof java.rmi.RemoteException)
                    && e.getCause() != null) {
                inner = e.getCause();
            }
            if (inner == null || inner == e) {
                return e;
            }
            e = inner;
        }
    }
}
