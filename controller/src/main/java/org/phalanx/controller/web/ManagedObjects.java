package org.phalanx.controller.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.CacheMXBean;
import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.jmx.ObjectNames;
import org.phalanx.controller.jmx.RecoveryLogMXBean;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/**
 * The controller's MBeans as typed proxies: /metrics and the dashboard read and act through the
 * same MBeans as jconsole and the admin console, so every figure and action means the same everywhere.
 */
final class ManagedObjects {
    private final MBeanServer server;

    ManagedObjects(MBeanServer server) {
        this.server = server;
    }

    ControllerMXBean controller() {
        return JMX.newMXBeanProxy(server, ObjectNames.controller(), ControllerMXBean.class);
    }

    /** The hosted virtual databases that are registered now (one may be loading or unloading). */
    List<String> virtualDatabases() {
        List<String> names = new ArrayList<>();
        for (String name : controller().getVirtualDatabases()) {
            if (server.isRegistered(ObjectNames.virtualDatabase(name))) {
                names.add(name);
            }
        }
        return names;
    }

    VirtualDatabaseMXBean virtualDatabase(String vdb) {
        return JMX.newMXBeanProxy(server, ObjectNames.virtualDatabase(vdb), VirtualDatabaseMXBean.class);
    }

    /** Its backends in configuration order; none while a distributed one is not the primary. */
    List<BackendMXBean> backends(String vdb) {
        List<BackendMXBean> backends = new ArrayList<>();
        for (String name : virtualDatabase(vdb).getBackends()) {
            ObjectName objectName = ObjectNames.backend(vdb, name);
            if (server.isRegistered(objectName)) {
                backends.add(JMX.newMXBeanProxy(server, objectName, BackendMXBean.class));
            }
        }
        return backends;
    }

    Optional<CacheMXBean> cache(String vdb) {
        return proxy(ObjectNames.cache(vdb), CacheMXBean.class);
    }

    Optional<RecoveryLogMXBean> recoveryLog(String vdb) {
        return proxy(ObjectNames.recoveryLog(vdb), RecoveryLogMXBean.class);
    }

    private <T> Optional<T> proxy(ObjectName name, Class<T> type) {
        return server.isRegistered(name) ? Optional.of(JMX.newMXBeanProxy(server, name, type)) : Optional.empty();
    }
}
