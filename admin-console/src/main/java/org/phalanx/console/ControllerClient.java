package org.phalanx.console;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.CacheMXBean;
import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.jmx.ObjectNames;
import org.phalanx.controller.jmx.RecoveryLogMXBean;
import org.phalanx.controller.jmx.SchedulerMXBean;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/** A JMX connection to one controller, and typed proxies of its MBeans. */
final class ControllerClient implements AutoCloseable {
    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final String address;

    private ControllerClient(JMXConnector connector, MBeanServerConnection server, String address) {
        this.connector = connector;
        this.server = server;
        this.address = address;
    }

    /**
     * Connects with an admin user and password.
     *
     * @throws ConsoleException with one line saying why not (refused credentials, nobody listening...)
     */
    static ControllerClient connect(String hostPort, String user, String password, boolean tls) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new ConsoleException("--jmx wants host:port, not '" + hostPort + "'");
        }
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnector.CREDENTIALS, new String[]{user, password});
        if (tls) {
            env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
        }
        JMXConnector connector;
        try {
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hostPort + "/jmxrmi");
            connector = JMXConnectorFactory.connect(url, env);
            return new ControllerClient(connector, connector.getMBeanServerConnection(), hostPort);
        } catch (SecurityException e) {
            throw new ConsoleException("JMX access to " + hostPort + " refused: wrong user or password");
        } catch (IOException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            if (root instanceof SecurityException) {
                throw new ConsoleException("JMX access to " + hostPort + " refused: wrong user or password");
            }
            if (root instanceof java.net.ConnectException) {
                throw new ConsoleException("cannot reach a controller's JMX port at " + hostPort + " (connection refused)");
            }
            if (root instanceof javax.net.ssl.SSLException) {
                throw new ConsoleException("TLS with the controller's JMX port at " + hostPort + " failed: "
                        + root.getMessage());
            }
            throw new ConsoleException("cannot connect to the controller's JMX port at " + hostPort + ": " + root);
        } catch (IllegalArgumentException e) {
            throw new ConsoleException("--jmx wants host:port, not '" + hostPort + "'");
        }
    }

    String address() {
        return address;
    }

    /** The host part of the JMX address (used to reach the client port when it listens everywhere). */
    String host() {
        return address.substring(0, address.lastIndexOf(':'));
    }

    ControllerMXBean controller() {
        return JMX.newMXBeanProxy(server, ObjectNames.controller(), ControllerMXBean.class);
    }

    /** The virtual database's MBean; fails with one line if the controller hosts none of that name. */
    VirtualDatabaseMXBean vdb(String name) {
        ObjectName on = ObjectNames.virtualDatabase(name);
        requireRegistered(on, "no virtual database " + name + " on this controller");
        return JMX.newMXBeanProxy(server, on, VirtualDatabaseMXBean.class, true);
    }

    BackendMXBean backend(String vdb, String backend) {
        ObjectName on = ObjectNames.backend(vdb, backend);
        requireRegistered(on, "virtual database " + vdb + " has no backend " + backend);
        return JMX.newMXBeanProxy(server, on, BackendMXBean.class);
    }

    /** The cache's MBean, or null when the virtual database has no cache. */
    CacheMXBean cache(String vdb) {
        ObjectName on = ObjectNames.cache(vdb);
        return registered(on) ? JMX.newMXBeanProxy(server, on, CacheMXBean.class) : null;
    }

    SchedulerMXBean scheduler(String vdb) {
        ObjectName on = ObjectNames.scheduler(vdb);
        requireRegistered(on, "virtual database " + vdb + " has no scheduler");
        return JMX.newMXBeanProxy(server, on, SchedulerMXBean.class);
    }

    /** The recovery log's MBean, or null when the virtual database has none. */
    RecoveryLogMXBean recoveryLog(String vdb) {
        ObjectName on = ObjectNames.recoveryLog(vdb);
        return registered(on) ? JMX.newMXBeanProxy(server, on, RecoveryLogMXBean.class) : null;
    }

    /** Listens to a virtual database's notifications until the returned handle is closed. */
    AutoCloseable listen(String vdb, NotificationListener listener) {
        ObjectName on = ObjectNames.virtualDatabase(vdb);
        try {
            server.addNotificationListener(on, listener, null, null);
        } catch (Exception e) {
            throw new ConsoleException(Errors.oneLine(e));
        }
        return () -> {
            try {
                server.removeNotificationListener(on, listener);
            } catch (Exception ignored) {
                // the connection or the MBean is gone: nothing left to remove
            }
        };
    }

    private boolean registered(ObjectName on) {
        try {
            return server.isRegistered(on);
        } catch (IOException e) {
            throw new ConsoleException("the controller's JMX connection was lost: " + e.getMessage());
        }
    }

    private void requireRegistered(ObjectName on, String otherwise) {
        if (!registered(on)) {
            throw new ConsoleException(otherwise);
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException ignored) {
            // closing a connection that is already gone
        }
    }
}
