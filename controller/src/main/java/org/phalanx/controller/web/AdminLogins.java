package org.phalanx.controller.web;

import com.sun.net.httpserver.HttpExchange;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.JmxConfig;
import org.phalanx.controller.net.LoginThrottle;

/**
 * Dashboard logins: the admin users of {@code <jmx>}, checked as JMX checks them, each login a
 * random token in an HttpOnly, SameSite=Strict cookie that expires after {@link #IDLE} unused.
 * Password guessing is slowed as on the client port ({@link LoginThrottle}).
 */
final class AdminLogins {
    private static final Logger LOG = LogManager.getLogger(AdminLogins.class);
    static final String COOKIE = "phalanx_session";
    static final Duration IDLE = Duration.ofMinutes(30);
    /** Sessions kept at most: logging in again and again must not fill the heap. */
    private static final int MAX_SESSIONS = 1_000;

    private record Login(String user, long lastUsedNanos) {
    }

    private final List<JmxConfig.Admin> admins;
    private final boolean secure;
    private final LoginThrottle throttle = new LoginThrottle();
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Login> sessions = new ConcurrentHashMap<>();

    /** @param secure the port serves HTTPS only: the cookie says so */
    AdminLogins(List<JmxConfig.Admin> admins, boolean secure) {
        this.admins = List.copyOf(admins);
        this.secure = secure;
    }

    boolean anyAdmin() {
        return !admins.isEmpty();
    }

    /** Checks the credentials; on success returns the {@code Set-Cookie} value of a new session. */
    Optional<String> logIn(String address, String user, String password) {
        if (!throttle.wait(address, user).isZero()) {
            return Optional.empty();
        }
        if (JmxConfig.admit(admins, user, password).isEmpty()) {
            if (throttle.failed(address, user)) {
                LOG.warn("Dashboard login refused for user {} from {}: wrong user or password", user, address);
            }
            return Optional.empty();
        }
        throttle.succeeded(address, user);
        dropExpired();
        if (sessions.size() >= MAX_SESSIONS) {
            sessions.clear(); // every admin logs in again rather than the heap filling up
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        sessions.put(token, new Login(user, System.nanoTime()));
        LOG.info("Dashboard login by admin user {} from {}", user, address);
        return Optional.of(cookie(token, IDLE.toSeconds()));
    }

    /** Ends the exchange's session; returns the {@code Set-Cookie} value that clears it. */
    String logOut(HttpExchange exchange) {
        token(exchange).ifPresent(sessions::remove);
        return cookie("", 0);
    }

    /** The admin the exchange's cookie names, if its session is live (using it keeps it live). */
    Optional<String> user(HttpExchange exchange) {
        Optional<String> token = token(exchange);
        if (token.isEmpty()) {
            return Optional.empty();
        }
        Login login = sessions.get(token.get());
        long now = System.nanoTime();
        if (login == null || now - login.lastUsedNanos() > IDLE.toNanos()) {
            sessions.remove(token.get());
            return Optional.empty();
        }
        sessions.put(token.get(), new Login(login.user(), now));
        return Optional.of(login.user());
    }

    private void dropExpired() {
        long now = System.nanoTime();
        sessions.values().removeIf(l -> now - l.lastUsedNanos() > IDLE.toNanos());
    }

    private String cookie(String token, long maxAgeSeconds) {
        return COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + maxAgeSeconds
                + (secure ? "; Secure" : "");
    }

    private static Optional<String> token(HttpExchange exchange) {
        for (String header : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
            for (String pair : header.split(";")) {
                String p = pair.trim();
                if (p.startsWith(COOKIE + "=")) {
                    return Optional.of(p.substring(COOKIE.length() + 1));
                }
            }
        }
        return Optional.empty();
    }
}
