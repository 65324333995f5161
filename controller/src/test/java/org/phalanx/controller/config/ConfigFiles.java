package org.phalanx.controller.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes configuration files for tests; text blocks keep the line numbers visible in the test. */
final class ConfigFiles {
    static final String CONTROLLER_HEADER = "<controller xmlns=\"urn:phalanx:controller:1\">";
    static final String VDB_NS = "xmlns=\"urn:phalanx:virtual-database:1\"";

    private ConfigFiles() {
    }

    static Path write(Path dir, String name, String text) {
        try {
            Path file = dir.resolve(name);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A controller.xml naming one virtual database file. */
    static Path controller(Path dir, String vdbFile) {
        return write(dir, "controller.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="%s"/>
                </controller>
                """.formatted(vdbFile));
    }
}
