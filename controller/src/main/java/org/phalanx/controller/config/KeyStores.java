package org.phalanx.controller.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/** Server sockets speaking TLS with a configured key store (the client port, JMX). */
public final class KeyStores {
    private KeyStores() {
    }

    /** TLS server sockets presenting the key store's certificate; {@code what} names its use in errors. */
    public static SSLServerSocketFactory serverSockets(JmxConfig.Tls tls, String what) throws IOException {
        return serverContext(tls, what).getServerSocketFactory();
    }

    /** A TLS context presenting the key store's certificate; {@code what} names its use in errors. */
    public static SSLContext serverContext(JmxConfig.Tls tls, String what) throws IOException {
        return serverContext(tls, null, what);
    }

    /**
     * A TLS context presenting the key store's certificate and trusting, from clients, the
     * certificates of {@code clientTrust} (null: the JVM's authorities, for servers that ask none).
     */
    public static SSLContext serverContext(JmxConfig.Tls tls, JmxConfig.Tls clientTrust, String what) throws IOException {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(tls, what + " key store"), tls.keyStorePassword().toCharArray());
            TrustManager[] trusted = null;
            if (clientTrust != null) {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(clientTrust, what + " client trust store"));
                trusted = tmf.getTrustManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), trusted, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use the " + what + " key store " + tls.keyStore() + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore load(JmxConfig.Tls store, String what) throws IOException {
        try (InputStream in = Files.newInputStream(store.keyStore())) {
            KeyStore keys = KeyStore.getInstance(store.keyStoreType());
            keys.load(in, store.keyStorePassword().toCharArray());
            return keys;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use the " + what + " " + store.keyStore() + ": " + e.getMessage(), e);
        }
    }
}
