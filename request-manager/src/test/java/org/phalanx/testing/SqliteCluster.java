package org.phalanx.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.jdbc.FaultyDriver;

/** N SQLite backend files in a folder, each reachable through {@link FaultyDriver} as "NAME". */
public final class SqliteCluster extends SqliteFiles {

    public SqliteCluster(Path dir, String... names) {
        super(dir, names);
    }

    /** Backend configs going through the fault injector (no fault until one is set). */
    public List<BackendConfig> backendConfigs() {
        List<BackendConfig> configs = new ArrayList<>();
        for (String n : names()) {
            FaultyDriver.fault(n).reset();
            configs.add(BackendConfig.builder(n, FaultyDriver.url(n, url(n)))
                    .driverClass(FaultyDriver.class.getName()).poolSize(20).build());
        }
        return configs;
    }
}
