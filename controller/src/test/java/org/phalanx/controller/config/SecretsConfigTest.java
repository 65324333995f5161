package org.phalanx.controller.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.BackendConfig;

/** Passwords out of the files: ${env:NAME} and passwordFile, for users, backends and JMX admins. */
class SecretsConfigTest {
    @TempDir
    Path dir;

    @Test
    void passwordsFromTheEnvironmentAndFromFiles() throws Exception {
        String home = System.getenv("HOME");
        ConfigFiles.write(dir, "secrets/app.txt", "from a file\nignored second line\n");
        ConfigFiles.write(dir, "secrets/admin.txt", "admin secret\n");
        ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <jmx port="1099"><admin user="admin" passwordFile="secrets/admin.txt"/></jmx>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users>
                    <user name="app" passwordFile="secrets/app.txt"/>
                    <user name="env" password="${env:HOME}"/>
                  </users>
                  <backends>
                    <backend name="db1" url="jdbc:postgresql://db/x" user="pg" password="${env:HOME}"/>
                  </backends>
                </virtualDatabase>
                """);
        ControllerConfig config = ControllerConfigReader.read(dir.resolve("controller.xml"));
        VirtualDatabaseConfig vdb = config.virtualDatabases().get(0);
        assertEquals("from a file", vdb.users().get(0).password());
        assertEquals(home, vdb.users().get(1).password());
        BackendConfig db1 = vdb.backends().get(0);
        assertEquals(home, db1.credentials().password());
        assertEquals("admin secret", config.jmx().admins().get(0).password());
    }

    @Test
    void aVariableNotSetOrAFileNotThereIsRefusedAtItsPlace() {
        ConfigFiles.controller(dir, "demo.xml");
        Path file = ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users>
                    <user name="app" password="${env:PHALANX_NO_SUCH_VARIABLE}"/>
                    <user name="other" passwordFile="missing.txt"/>
                    <user name="both" password="x" passwordFile="missing.txt"/>
                    <user name="none"/>
                    <user name="hashed" passwordHash="md5:whatever"/>
                  </users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> ControllerConfigReader.read(dir.resolve("controller.xml")));
        assertEquals(5, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith(file + ":3:"), e.getMessage());
        assertTrue(e.getMessage().contains("environment variable PHALANX_NO_SUCH_VARIABLE is not set"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot read passwordFile " + dir.resolve("missing.txt")), e.getMessage());
        assertTrue(e.getMessage().contains("give password or passwordFile, not both"), e.getMessage());
        assertTrue(e.getMessage().contains("user 'none' needs password, passwordFile or passwordHash"), e.getMessage());
        assertTrue(e.getMessage().contains("user 'hashed': a password hash reads pbkdf2-sha256:"), e.getMessage());
    }
}
