package org.phalanx.controller.jmx;

import java.util.List;
import java.util.Set;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.JmxConfig;

/**
 * Admits the admin users of controller.xml ({@code String[]{user, password}} credentials, as
 * jconsole sends them) and nobody else: no credentials, a wrong user and a wrong password are
 * all refused with the same message.
 */
final class AdminAuthenticator implements JMXAuthenticator {
    private static final Logger LOG = LogManager.getLogger(AdminAuthenticator.class);
    static final String REFUSED = "invalid credentials: JMX access needs an admin user and password of this controller";

    private final List<JmxConfig.Admin> admins;

    AdminAuthenticator(List<JmxConfig.Admin> admins) {
        this.admins = List.copyOf(admins);
    }

    @Override
    public Subject authenticate(Object credentials) {
        if (!(credentials instanceof String[] pair) || pair.length != 2 || pair[0] == null || pair[1] == null) {
            LOG.warn("JMX connection refused: no user and password given");
            throw new SecurityException(REFUSED);
        }
        JmxConfig.Admin admin = JmxConfig.admit(admins, pair[0], pair[1]).orElse(null);
        if (admin != null) {
            LOG.info("JMX connection by admin user {}", admin.user());
            return new Subject(true, Set.of(new JMXPrincipal(admin.user())), Set.of(), Set.of());
        }
        LOG.warn("JMX connection refused for user {}: wrong user or password", pair[0]);
        throw new SecurityException(REFUSED);
    }
}
