package org.phalanx.driver;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.sql.SQLException;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The driver's side of TLS ({@code ssl=true}): the controller's certificate must be trusted (by the
 * JVM's authorities, or by {@code sslTrustStore}) and name the host connected to, as HTTPS checks it.
 * With {@code sslKeyStore}, the driver presents that certificate to a controller that asks for one.
 */
final class Tls {
    private Tls() {
    }

    /** TLS over an open TCP connection to {@code host}, its handshake done. */
    static Socket over(Socket plain, String host, int port, ConnectionUrl url) throws IOException, SQLException {
        SSLSocket tls = (SSLSocket) context(url).getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name this host
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    private static SSLContext context(ConnectionUrl url) throws IOException, SQLException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(url), trustManagers(url), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw SqlExceptions.create("cannot set up TLS: " + e.getMessage(), SqlExceptions.CONNECTION_FAILED, 0, e);
        }
    }

    /** The certificates to trust from {@code sslTrustStore}, or null: the JVM's authorities. */
    private static TrustManager[] trustManagers(ConnectionUrl url) throws IOException, SQLException {
        KeyStore trusted = load(url, ConnectionUrl.SSL_TRUST_STORE, ConnectionUrl.SSL_TRUST_STORE_PASSWORD,
                ConnectionUrl.SSL_TRUST_STORE_TYPE);
        if (trusted == null) {
            return null;
        }
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            return tmf.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw unusable(url.property(ConnectionUrl.SSL_TRUST_STORE), e);
        }
    }

    /** This client's certificate from {@code sslKeyStore}, or null: none to present. */
    private static KeyManager[] keyManagers(ConnectionUrl url) throws IOException, SQLException {
        KeyStore keys = load(url, ConnectionUrl.SSL_KEY_STORE, ConnectionUrl.SSL_KEY_STORE_PASSWORD,
                ConnectionUrl.SSL_KEY_STORE_TYPE);
        if (keys == null) {
            return null;
        }
        try {
            String password = url.property(ConnectionUrl.SSL_KEY_STORE_PASSWORD);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, password == null ? new char[0] : password.toCharArray());
            return kmf.getKeyManagers();
        } catch (GeneralSecurityException e) {
            throw unusable(url.property(ConnectionUrl.SSL_KEY_STORE), e);
        }
    }

    private static KeyStore load(ConnectionUrl url, String pathProperty, String passwordProperty, String typeProperty)
            throws IOException, SQLException {
        String path = url.property(pathProperty);
        if (path == null || path.isBlank()) {
            return null;
        }
        String type = url.property(typeProperty);
        String password = url.property(passwordProperty);
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            KeyStore store = KeyStore.getInstance(type == null ? "PKCS12" : type);
            store.load(in, password == null ? null : password.toCharArray());
            return store;
        } catch (GeneralSecurityException e) {
            throw unusable(path, e);
        }
    }

    private static SQLException unusable(String store, GeneralSecurityException e) {
        return SqlExceptions.create("cannot use the key store " + store + ": " + e.getMessage(),
                SqlExceptions.CONNECTION_FAILED, 0, e);
    }
}
