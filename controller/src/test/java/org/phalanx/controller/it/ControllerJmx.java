package org.phalanx.controller.it;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * An operator's JMX client of one virtual database of a controller process: the MBean operations
 * by name, with plain JDK classes, as jconsole or the admin console use them.
 */
final class ControllerJmx implements AutoCloseable {
    private static final String[] ONE_STRING = {String.class.getName()};

    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final ObjectName vdb;
    private final String vdbName;

    private ControllerJmx(JMXConnector connector, String vdbName) throws Exception {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
        this.vdb = new ObjectName("org.phalanx:type=VirtualDatabase,name=" + vdbName);
        this.vdbName = vdbName;
    }

    /** Connects, retrying for a while: the registry's port opens before the connector is bound in it. */
    static ControllerJmx connect(int port, String user, String password, String vdbName) throws Exception {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnector.CREDENTIALS, new String[]{user, password});
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return new ControllerJmx(JMXConnectorFactory.connect(url, env), vdbName);
            } catch (IOException notYetBound) {
                if (System.nanoTime() > deadline) {
                    throw notYetBound;
                }
                Thread.sleep(100);
            }
        }
    }

    /** An attribute of one backend's MBean (State, DisabledReason, QueuedWrites...). */
    Object backend(String backend, String attribute) throws Exception {
        return server.getAttribute(new ObjectName("org.phalanx:type=Backend,vdb=" + vdbName + ",name=" + backend),
                attribute);
    }

    /** The controller's heap in use right after a full collection (the JVM's own MXBean, served beside ours). */
    long heapAfterGc() throws Exception {
        ObjectName memory = new ObjectName("java.lang:type=Memory");
        server.invoke(memory, "gc", null, null);
        return java.lang.management.MemoryUsage.from((CompositeData) server.getAttribute(memory, "HeapMemoryUsage"))
                .getUsed();
    }

    /** The controller's live threads (the JVM's own MXBean). */
    int threadCount() throws Exception {
        return (Integer) server.getAttribute(new ObjectName("java.lang:type=Threading"), "ThreadCount");
    }

    /** Backend name to state (ENABLED, DISABLED, REPLAYING, RESTORING), by name. */
    Map<String, String> states() throws Exception {
        TabularData table = (TabularData) server.getAttribute(vdb, "BackendStates");
        Map<String, String> states = new TreeMap<>();
        for (Object row : table.values()) {
            CompositeData r = (CompositeData) row;
            states.put((String) r.get("key"), (String) r.get("value"));
        }
        return states;
    }

    /** The checkpoint a disabled backend will be replayed from; -1 when it has none (it failed). */
    long checkpointOf(String backend) throws Exception {
        return (Long) server.getAttribute(new ObjectName("org.phalanx:type=Backend,vdb=" + vdbName + ",name=" + backend),
                "Checkpoint");
    }

    Map<String, Long> checkpoints() throws Exception {
        TabularData table = (TabularData) server.getAttribute(vdb, "Checkpoints");
        Map<String, Long> checkpoints = new LinkedHashMap<>();
        for (Object row : table.values()) {
            CompositeData r = (CompositeData) row;
            checkpoints.put((String) r.get("key"), (Long) r.get("value"));
        }
        return checkpoints;
    }

    /** The Group attribute of a distributed virtual database. */
    CompositeData group() throws Exception {
        return (CompositeData) server.getAttribute(vdb, "Group");
    }

    /** Every message of an exception's chain: JMX wraps the controller's SQLException. */
    static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getMessage()).append(" / ");
        }
        return b.toString();
    }

    void stepDown() throws Exception {
        server.invoke(vdb, "stepDown", null, null);
    }

    void addGroupMember(String member) throws Exception {
        server.invoke(vdb, "addGroupMember", new Object[]{member}, ONE_STRING);
    }

    /** On the primary: takes over the backends of a gone member; those taken into service. */
    String[] takeOverBackends(String member) throws Exception {
        return (String[]) server.invoke(vdb, "takeOverBackends", new Object[]{member}, ONE_STRING);
    }

    /** On the primary: gives the backends it took over from {@code member} back to it; those given back. */
    String[] giveBackBackends(String member) throws Exception {
        return (String[]) server.invoke(vdb, "giveBackBackends", new Object[]{member}, ONE_STRING);
    }

    /** Compacts this member's copy of the group's log; the dump's log position. */
    long compactGroupLog() throws Exception {
        return (Long) server.invoke(vdb, "compactGroupLog", null, null);
    }

    void disableBackend(String backend) throws Exception {
        server.invoke(vdb, "disableBackend", new Object[]{backend}, ONE_STRING);
    }

    void enableBackend(String backend) throws Exception {
        server.invoke(vdb, "enableBackend", new Object[]{backend}, ONE_STRING);
    }

    long checkpoint(String name) throws Exception {
        return (Long) server.invoke(vdb, "checkpoint", new Object[]{name}, ONE_STRING);
    }

    /** A dump of {@code backend} named {@code dumpName}; format "" or null for the portable one. */
    void backup(String backend, String dumpName, String format) throws Exception {
        server.invoke(vdb, "backup", new Object[]{backend, dumpName, format == null ? "" : format},
                new String[]{String.class.getName(), String.class.getName(), String.class.getName()});
    }

    void restore(String backend, String dumpName, boolean force) throws Exception {
        server.invoke(vdb, "restore", new Object[]{backend, dumpName, force},
                new String[]{String.class.getName(), String.class.getName(), boolean.class.getName()});
    }

    /** The dumps listed, by name, to the problem reading each (null when it reads fine). */
    Map<String, String> listDumps() throws Exception {
        Map<String, String> dumps = new TreeMap<>();
        for (CompositeData d : (CompositeData[]) server.invoke(vdb, "listDumps", null, null)) {
            dumps.put((String) d.get("name"), (String) d.get("problem"));
        }
        return dumps;
    }

    /** Verifies the replicas ({@code tables} "" for all); the report as open data. */
    CompositeData verify(String tables, long rowsPerSecond, String onDifference) throws Exception {
        return (CompositeData) server.invoke(vdb, "verifyWith", new Object[]{tables, rowsPerSecond, onDifference},
                new String[]{String.class.getName(), long.class.getName(), String.class.getName()});
    }

    /** An attribute of the virtual database's MBean (LastVerification, VerificationProgress...). */
    Object attribute(String name) throws Exception {
        return server.getAttribute(vdb, name);
    }

    /** Receives the virtual database's notifications from now on. */
    void listen(javax.management.NotificationListener listener) throws Exception {
        server.addNotificationListener(vdb, listener, null, null);
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException | RuntimeException gone) {
            // the controller was killed: nothing to close on its side
        }
    }
}
