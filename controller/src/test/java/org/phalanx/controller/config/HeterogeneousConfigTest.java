package org.phalanx.controller.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.config.BackendConfig;

/** {@code driverJar} and {@code <rewriting>}: read into each backend's configuration, or refused with the spot. */
class HeterogeneousConfigTest {
    /** The older sqlite-jdbc the request manager's build copies for its own tests. */
    private static final Path OLD_SQLITE = Path.of("..", "request-manager", "target", "test-drivers",
            "sqlite-jdbc-old.jar").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private Path vdb(String backendsAndRules) {
        return vdb(" sqlDialect=\"postgresql\"", backendsAndRules);
    }

    private Path vdb(String rootAttributes, String backendsAndRules) {
        return ConfigFiles.write(dir, "vdb.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="mixed"%s>
                  <users><user name="app" password="pw"/></users>
                %s
                </virtualDatabase>
                """.formatted(rootAttributes, backendsAndRules));
    }

    @Test
    void aMixedVirtualDatabaseDeclaresItsSqlDialect() throws Exception {
        assertEquals(Engine.MARIADB, VirtualDatabaseConfigReader.read(vdb(" sqlDialect=\"mariadb\"", BACKENDS))
                .requestManager().sqlDialect());
        Path undeclared = vdb("", BACKENDS);
        ConfigException e = assertThrows(ConfigException.class, () -> VirtualDatabaseConfigReader.read(undeclared));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith(undeclared + ":2:") && e.problems().get(0).contains(
                "the backends run different engines (sqlite, postgresql, mariadb): declare the SQL dialect"), e.getMessage());
        Path wrong = vdb(" sqlDialect=\"oracle\"", BACKENDS);
        e = assertThrows(ConfigException.class, () -> VirtualDatabaseConfigReader.read(wrong));
        assertTrue(e.getMessage().contains("oracle"), e.getMessage());
    }

    @Test
    void aSingleEngineVirtualDatabaseSpeaksItsEnginesDialect() throws Exception {
        assertNull(VirtualDatabaseConfigReader.read(vdb("", """
                  <backends>
                    <backend name="a" url="jdbc:postgresql://127.0.0.1/a" user="postgres"/>
                    <backend name="b" url="jdbc:postgresql://127.0.0.1/b" user="postgres"/>
                  </backends>
                """)).requestManager().sqlDialect(), "the backends' own dialect, nothing translated");
        assertEquals(Engine.SQLITE, VirtualDatabaseConfigReader.read(vdb(" sqlDialect=\"sqlite\"", """
                  <backends><backend name="a" url="jdbc:postgresql://127.0.0.1/a" user="postgres"/></backends>
                """)).requestManager().sqlDialect(), "declared: translated even for one engine");
    }

    private static final String BACKENDS = """
              <backends>
                <backend name="lite" url="jdbc:sqlite:lite.db"/>
                <backend name="pg" url="jdbc:postgresql://127.0.0.1/x" user="postgres"/>
                <backend name="maria" url="jdbc:mariadb://127.0.0.1/x" user="root"/>
              </backends>
            """;

    @Test
    void rulesGoToTheBackendsTheyTarget() throws Exception {
        List<BackendConfig> backends = VirtualDatabaseConfigReader.read(vdb(BACKENDS + """
                  <rewriting>
                    <rewrite pattern="(?i)\\bRANDOM\\(\\)" replacement="RAND()" engine="mariadb"/>
                    <rewrite match="exact" pattern="SELECT 1" replacement="SELECT 2" backend="pg"/>
                    <rewrite pattern="everyone" replacement="all"/>
                  </rewriting>
                """)).backends();
        assertEquals(List.of(1, 2, 2), backends.stream().map(b -> b.rewrites().size()).toList());
        BackendConfig maria = backends.get(2);
        assertEquals("SELECT RAND(), all", rewrite(maria, "SELECT random(), everyone"));
        BackendConfig pg = backends.get(1);
        assertEquals("SELECT 2", rewrite(pg, "SELECT 1"));
        assertEquals("SELECT 1 + 1", rewrite(pg, "SELECT 1 + 1"), "exact: the whole statement only");
        assertEquals("SELECT random()", rewrite(backends.get(0), "SELECT random()"));
    }

    private static String rewrite(BackendConfig b, String sql) {
        String out = sql;
        for (var rule : b.rewrites()) {
            out = rule.apply(out);
        }
        return out;
    }

    @Test
    void badRulesAreRefusedWhereTheyAre() {
        Path file = vdb(BACKENDS + """
                  <rewriting>
                    <rewrite pattern="(unclosed" replacement="x"/>
                    <rewrite pattern="(a)" replacement="$2"/>
                    <rewrite pattern="a" replacement="b" backend="nobody"/>
                    <rewrite pattern="a" replacement="b" engine="sqlite"/>
                  </rewriting>
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> VirtualDatabaseConfigReader.read(file));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith(file + ":10:") && e.problems().get(0).contains("invalid regular expression"),
                e.problems().get(0));
        assertTrue(e.problems().get(1).startsWith(file + ":11:") && e.problems().get(1).contains("invalid replacement"),
                e.problems().get(1));
        assertTrue(e.problems().get(2).startsWith(file + ":12:") && e.problems().get(2).contains("unknown backend 'nobody'"),
                e.problems().get(2));
    }

    @Test
    void aRuleForAnEngineNoBackendHasIsRefused() {
        Path file = vdb("""
                  <backends>
                    <backend name="lite" url="jdbc:sqlite:lite.db"/>
                  </backends>
                  <rewriting>
                    <rewrite pattern="a" replacement="b" engine="postgresql"/>
                  </rewriting>
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> VirtualDatabaseConfigReader.read(file));
        assertTrue(e.getMessage().contains(":8:") && e.getMessage().contains("no backend of this virtual database is postgresql"),
                e.getMessage());
    }

    @Test
    void driverJarsAreResolvedAgainstTheFileAndChecked() throws Exception {
        assertTrue(Files.isRegularFile(OLD_SQLITE), "built by request-manager: " + OLD_SQLITE);
        Files.createDirectories(dir.resolve("drivers"));
        Files.copy(OLD_SQLITE, dir.resolve("drivers/sqlite-old.jar"));
        List<BackendConfig> backends = VirtualDatabaseConfigReader.read(vdb("""
                  <backends>
                    <backend name="a" url="jdbc:sqlite:a.db" driverJar="drivers/sqlite-old.jar" driver="org.sqlite.JDBC"/>
                    <backend name="b" url="jdbc:sqlite:b.db"/>
                  </backends>
                """)).backends();
        assertEquals(dir.resolve("drivers/sqlite-old.jar"), backends.get(0).driverJar());
        assertNull(backends.get(1).driverJar());

        Path file = vdb("""
                  <backends>
                    <backend name="a" url="jdbc:sqlite:a.db" driverJar="drivers/missing.jar"/>
                    <backend name="b" url="jdbc:sqlite:b.db" driverJar="drivers/sqlite-old.jar" driver="org.example.NoDriver"/>
                  </backends>
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> VirtualDatabaseConfigReader.read(file));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith(file + ":5:") && e.problems().get(0).contains("is not a readable file"),
                e.problems().get(0));
        assertTrue(e.problems().get(1).startsWith(file + ":6:") && e.problems().get(1).contains("is not in"),
                e.problems().get(1));
    }
}
