package org.phalanx.controller.jmx;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.api.BackendView;

/**
 * The controller's MBeans, in an MBean server of its own (so several controllers in one JVM, as
 * in tests, do not collide); the JMX connector serves this server.
 */
public final class ManagementRegistry {
    private static final Logger LOG = LogManager.getLogger(ManagementRegistry.class);

    private final MBeanServer server = MBeanServerFactory.newMBeanServer(ObjectNames.DOMAIN);

    /** The JVM's own figures an operator reads beside the controller's: heap, threads, uptime, CPU. */
    public ManagementRegistry() {
        for (java.lang.management.PlatformManagedObject jvm : java.util.List.of(ManagementFactory.getMemoryMXBean(),
                ManagementFactory.getThreadMXBean(), ManagementFactory.getRuntimeMXBean(),
                ManagementFactory.getOperatingSystemMXBean())) {
            register(jvm, jvm.getObjectName());
        }
    }

    public MBeanServer server() {
        return server;
    }

    public void registerController(ControllerMXBean controller) {
        register(controller, ObjectNames.controller());
    }

    /** Registers the MBeans of a virtual database: its own, each backend's, the scheduler's, the cache's and the log's. */
    public void registerVirtualDatabase(VirtualDatabase vdb, VirtualDatabaseManagement.Unloader unloader) {
        VirtualDatabaseManagement management = new VirtualDatabaseManagement(vdb, unloader);
        register(management, ObjectNames.virtualDatabase(vdb.name()));
        // a distributed virtual database's request manager comes and goes with the primary role
        vdb.onServingChanged(rm -> showRequestManager(vdb.name(), rm, management));
        showRequestManager(vdb.name(), vdb.requestManager().orElse(null), management);
        if (vdb.recoveryLogStatus().isPresent()) {
            register(new RecoveryLogManagement(management), ObjectNames.recoveryLog(vdb.name()));
        }
    }

    /** The MBeans of a request manager's parts (backends, scheduler, cache), or none without one. */
    private synchronized void showRequestManager(String vdb, RequestManager rm, VirtualDatabaseManagement management) {
        unregisterRequestManager(vdb);
        if (rm == null) {
            return;
        }
        for (BackendView b : rm.backends()) {
            register(new BackendManagement(b, management), ObjectNames.backend(vdb, b.name()));
        }
        register(new SchedulerManagement(rm), ObjectNames.scheduler(vdb));
        if (rm.cacheStatistics() != null) {
            register(new CacheManagement(management), ObjectNames.cache(vdb));
        }
    }

    private void unregisterRequestManager(String vdb) {
        for (ObjectName part : server.queryNames(ObjectNames.allOf(vdb), null)) {
            String type = part.getKeyProperty("type");
            if ("Backend".equals(type) || "Scheduler".equals(type) || "Cache".equals(type)) {
                unregister(part);
            }
        }
    }

    public void unregisterVirtualDatabase(String vdb) {
        unregister(ObjectNames.virtualDatabase(vdb));
        for (ObjectName part : server.queryNames(ObjectNames.allOf(vdb), null)) {
            unregister(part);
        }
    }

    /** Unregisters everything (the controller stops). */
    public void unregisterAll() {
        for (ObjectName name : server.queryNames(ObjectName.WILDCARD, null)) {
            if (ObjectNames.DOMAIN.equals(name.getDomain())) {
                unregister(name);
            }
        }
    }

    private void register(Object mbean, ObjectName name) {
        try {
            server.registerMBean(mbean, name);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalStateException("MBean " + name + " is already registered", e);
        } catch (JMException e) {
            throw new IllegalStateException("cannot register MBean " + name + ": " + e.getMessage(), e);
        }
    }

    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // already gone
        } catch (MBeanRegistrationException e) {
            LOG.warn("Unregistering MBean {} failed: {}", name, e.getMessage());
        }
    }
}
