package org.phalanx.controller.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads controller.xml ({@code urn:phalanx:controller:1}) and every virtual database file it
 * names (relative to controller.xml's own folder). All problems of all files are reported together.
 */
public final class ControllerConfigReader {

    private ControllerConfigReader() {
    }

    public static ControllerConfig read(Path file) throws ConfigException {
        String shownAs = file.toString();
        XmlSchemaValidator.CONTROLLER.validate(file, shownAs);
        XmlElement root = XmlTreeReader.read(file, shownAs);
        ConfigProblems problems = new ConfigProblems();
        Secrets secrets = new Secrets(file.toAbsolutePath().getParent(), problems);
        JmxConfig jmx = root.child("jmx").map(e -> jmx(e, file, secrets, problems)).orElse(null);
        ListenConfig listen = root.child("listen").map(e -> listen(e, file, secrets)).orElse(ListenConfig.defaults());
        HttpConfig http = root.child("http").map(e -> http(e, file, secrets)).orElse(null);

        Map<String, ConfigLocation> names = new HashMap<>();
        List<VirtualDatabaseConfig> virtualDatabases = new ArrayList<>();
        for (XmlElement ref : root.children("virtualDatabase")) {
            String name = ref.required("file");
            Path vdbFile;
            try {
                // resolveSibling: relative to controller.xml's folder, shown the way the user wrote the path
                vdbFile = file.resolveSibling(name).normalize();
            } catch (InvalidPathException e) {
                problems.add(ref.location(), "'" + name + "' is not a file path");
                continue;
            }
            if (!Files.isRegularFile(vdbFile)) {
                problems.add(ref.location(), "virtual database file '" + name + "' not found (looked for "
                        + vdbFile.toAbsolutePath() + ")");
                continue;
            }
            VirtualDatabaseConfig vdb;
            try {
                vdb = VirtualDatabaseConfigReader.read(vdbFile, vdbFile.toString());
            } catch (ConfigException e) {
                problems.addAll(e);
                continue;
            }
            ConfigLocation first = names.putIfAbsent(vdb.name(), ref.location());
            if (first != null) {
                problems.add(ref.location(), "virtual database '" + vdb.name()
                        + "' is already defined by the file named at line " + first.line());
            } else {
                virtualDatabases.add(vdb);
            }
        }
        checkRecoveryLogsAreNotShared(virtualDatabases, problems);
        problems.throwIfAny();
        return new ControllerConfig(file.toAbsolutePath().normalize(), listen, jmx, http, List.copyOf(virtualDatabases));
    }

    /**
     * Two virtual databases writing one recovery log (or one dump folder) would replay each
     * other's writes and delete each other's dumps.
     */
    private static void checkRecoveryLogsAreNotShared(List<VirtualDatabaseConfig> virtualDatabases,
                                                      ConfigProblems problems) {
        Map<String, VirtualDatabaseConfig> logs = new HashMap<>();
        Map<Path, VirtualDatabaseConfig> dumpDirs = new HashMap<>();
        for (VirtualDatabaseConfig vdb : virtualDatabases) {
            RecoveryLogConfig log = vdb.recoveryLog();
            if (log == null) {
                continue;
            }
            String key = log.isFileLog() ? "dir " + log.directory()
                    : "url " + withoutQuery(log.url()) + " prefix " + log.tablePrefix();
            VirtualDatabaseConfig first = logs.putIfAbsent(key, vdb);
            if (first != null) {
                problems.add(log.location(), "virtual database '" + vdb.name() + "' uses the same recovery log as"
                        + " virtual database '" + first.name() + "' (" + first.recoveryLog().location() + "): each needs"
                        + " its own (another " + (log.isFileLog() ? "dir" : "tablePrefix or database") + ")");
            }
            first = dumpDirs.putIfAbsent(log.dumpDir(), vdb);
            if (first != null) {
                problems.add(log.location(), "virtual database '" + vdb.name() + "' uses the same dump folder "
                        + log.dumpDir() + " as virtual database '" + first.name() + "' ("
                        + first.recoveryLog().location() + "): give each a dumpDir of its own");
            }
        }
    }

    private static String withoutQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }

    private static JmxConfig jmx(XmlElement e, Path file, Secrets secrets, ConfigProblems problems) {
        List<JmxConfig.Admin> admins = new ArrayList<>();
        for (XmlElement a : e.children("admin")) {
            if (!Secrets.given(a, "password")) {
                problems.add(a.location(), "admin '" + a.required("user").trim() + "' needs password or passwordFile");
                continue;
            }
            String password = secrets.of(a, "password");
            admins.add(new JmxConfig.Admin(a.required("user").trim(), password == null ? "" : password));
        }
        JmxConfig.Tls tls = e.child("tls").map(t -> tls(t, file, secrets)).orElse(null);
        return new JmxConfig(e.attribute("address", JmxConfig.DEFAULT_ADDRESS).trim(),
                Integer.parseInt(e.attribute("port", String.valueOf(JmxConfig.DEFAULT_PORT)).trim()),
                List.copyOf(admins), tls);
    }

    private static HttpConfig http(XmlElement e, Path file, Secrets secrets) {
        return new HttpConfig(e.attribute("address", HttpConfig.DEFAULT_ADDRESS).trim(),
                Integer.parseInt(e.attribute("port", String.valueOf(HttpConfig.DEFAULT_PORT)).trim()),
                e.flag("metrics", true), e.flag("dashboard", true), e.flag("metricsLogin", false),
                e.child("tls").map(t -> tls(t, file, secrets)).orElse(null));
    }

    /** A {@code <tls>} element: the key store, relative to the controller file, and its password. */
    private static JmxConfig.Tls tls(XmlElement t, Path file, Secrets secrets) {
        String password = secrets.of(t, "keyStorePassword");
        return new JmxConfig.Tls(file.toAbsolutePath().resolveSibling(t.required("keyStore")).normalize(),
                password == null ? "" : password, t.attribute("keyStoreType", "PKCS12").trim());
    }

    /** A client port's {@code clientTrustStore}: the certificates clients must present one of. */
    private static JmxConfig.Tls clientTrust(XmlElement t, Path file, Secrets secrets) {
        String password = secrets.of(t, "clientTrustStorePassword");
        return new JmxConfig.Tls(file.toAbsolutePath().resolveSibling(t.required("clientTrustStore")).normalize(),
                password == null ? "" : password, t.attribute("clientTrustStoreType", "PKCS12").trim());
    }

    private static ListenConfig listen(XmlElement e, Path file, Secrets secrets) {
        ListenConfig defaults = ListenConfig.defaults();
        return new ListenConfig(
                e.attribute("address", defaults.address()).trim(),
                Integer.parseInt(e.attribute("port", String.valueOf(defaults.port())).trim()),
                Integer.parseInt(e.attribute("maxFrameBytes", String.valueOf(defaults.maxFrameBytes())).trim()),
                Integer.parseInt(e.attribute("maxConnections", String.valueOf(defaults.maxConnections())).trim()),
                Integer.parseInt(e.attribute("maxConnectionsPerUser", "0").trim()),
                e.child("tls").map(t -> tls(t, file, secrets)).orElse(null),
                Durations.parse(e.attribute("writeTimeout", ListenConfig.DEFAULT_WRITE_TIMEOUT.toSeconds() + "s").trim()),
                e.child("tls").filter(t -> t.attributes().containsKey("clientTrustStore"))
                        .map(t -> clientTrust(t, file, secrets)).orElse(null));
    }
}
