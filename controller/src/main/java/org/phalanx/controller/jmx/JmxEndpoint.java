package org.phalanx.controller.jmx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.SSLServerSocketFactory;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.JmxConfig;

/**
 * The JMX RMI connector: an RMI registry and the connector's remote objects share one port on
 * the configured address, so one firewall rule (or one SSH tunnel) is enough. Clients connect to
 * {@code service:jmx:rmi:///jndi/rmi://ADDRESS:PORT/jmxrmi} with an admin user and password.
 */
public final class JmxEndpoint implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(JmxEndpoint.class);

    private final Registry registry;
    private final JMXConnectorServer connector;
    private final String address;
    private final int port;

    private JmxEndpoint(Registry registry, JMXConnectorServer connector, String address, int port) {
        this.registry = registry;
        this.connector = connector;
        this.address = address;
        this.port = port;
    }

    /** Opens the connector on the configured address and port (0: a free port, for tests). */
    public static JmxEndpoint start(JmxConfig config, MBeanServer server) throws IOException {
        InetAddress bindAddress = InetAddress.getByName(config.address());
        int port = config.port() != 0 ? config.port() : freePort(bindAddress);
        String host = bindAddress.isAnyLocalAddress() ? InetAddress.getLocalHost().getHostAddress() : config.address();
        if (System.getProperty("java.rmi.server.hostname") == null) {
            // the stubs handed to clients carry this host: it must be the address we listen on
            System.setProperty("java.rmi.server.hostname", host);
        }
        RMIServerSocketFactory serverSockets;
        RMIClientSocketFactory clientSockets;
        if (config.tls() != null) {
            serverSockets = new BoundServerSockets(bindAddress, org.phalanx.controller.config.KeyStores.serverSockets(config.tls(), "JMX"));
            clientSockets = new SslRMIClientSocketFactory();
        } else {
            serverSockets = new BoundServerSockets(bindAddress, null);
            clientSockets = null;
        }
        Registry registry;
        try {
            registry = LocateRegistry.createRegistry(port, clientSockets, serverSockets);
        } catch (java.rmi.RemoteException e) {
            throw new IOException("cannot open the JMX port " + config.address() + ":" + port + ": "
                    + rootMessage(e), e);
        }
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnectorServer.AUTHENTICATOR, new AdminAuthenticator(config.admins()));
        // the connector's remote object is exported on the same port and bound straight into our registry
        // (a local call: binding through JNDI would connect to the registry as a client, which over TLS
        // would have to trust the controller's own certificate)
        JMXConnectorServer connector;
        try {
            RMIJRMPServerImpl rmiServer = new RMIJRMPServerImpl(port, clientSockets, serverSockets, env);
            connector = new RMIConnectorServer(new JMXServiceURL("rmi", host, port), env, rmiServer, server);
            connector.start();
            registry.rebind("jmxrmi", rmiServer.toStub());
        } catch (IOException e) {
            unexport(registry);
            throw new IOException("cannot start the JMX connector on " + host + ":" + port + ": " + rootMessage(e), e);
        }
        LOG.info("JMX connector listening on {}:{}{} ({} admin user(s))", config.address(), port,
                config.tls() == null ? "" : " with TLS", config.admins().size());
        return new JmxEndpoint(registry, connector, config.address(), port);
    }

    public int port() {
        return port;
    }

    public String address() {
        return address;
    }

    @Override
    public void close() {
        try {
            connector.stop();
        } catch (IOException e) {
            LOG.warn("Stopping the JMX connector failed: {}", e.getMessage());
        }
        unexport(registry);
    }

    private static void unexport(Registry registry) {
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException e) {
            // already gone
        }
    }

    private static int freePort(InetAddress address) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, address)) {
            return s.getLocalPort();
        }
    }

    private static String rootMessage(Throwable e) {
        while (e.getCause() != null) {
            e = e.getCause();
        }
        return e.toString();
    }

    /**
     * Server sockets on one address (RMI's default binds every interface), plain or TLS. Equal
     * when alike, so RMI shares one port between the registry and the connector.
     */
    private record BoundServerSockets(InetAddress address, SSLServerSocketFactory tls) implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            ServerSocket s = tls != null ? tls.createServerSocket() : new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(address, port));
            return s;
        }
    }

}
