package org.phalanx.driver;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.sql.SQLException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The driver's side of TLS ({@code ssl=true}): the controller's certificate must be trusted (by the
 * JVM's authorities, or by {@code sslTrustStore}) and name the host connected to, as HTTPS checks it.
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
        String store = url.property(ConnectionUrl.SSL_TRUST_STORE);
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            if (store == null || store.isBlank()) {
                context.init(null, null, null);
                return context;
            }
            String type = url.property(ConnectionUrl.SSL_TRUST_STORE_TYPE);
            KeyStore trusted = KeyStore.getInstance(type == null ? "PKCS12" : type);
            String password = url.property(ConnectionUrl.SSL_TRUST_STORE_PASSWORD);
            try (InputStream in = Files.newInputStream(Path.of(store))) {
                trusted.load(in, password == null ? null : password.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw SqlExceptions.create("cannot use the trust store " + store + ": " + e.getMessage(),
                    SqlExceptions.CONNECTION_FAILED, 0, e);
        }
    }
}
