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
        ListenConfig listen = root.child("listen").map(ControllerConfigReader::listen).orElse(ListenConfig.defaults());

        ConfigProblems problems = new ConfigProblems();
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
        problems.throwIfAny();
        return new ControllerConfig(file.toAbsolutePath().normalize(), listen, List.copyOf(virtualDatabases));
    }

    private static ListenConfig listen(XmlElement e) {
        ListenConfig defaults = ListenConfig.defaults();
        return new ListenConfig(
                e.attribute("address", defaults.address()).trim(),
                Integer.parseInt(e.attribute("port", String.valueOf(defaults.port())).trim()),
                Integer.parseInt(e.attribute("maxFrameBytes", String.valueOf(defaults.maxFrameBytes())).trim()));
    }
}
