package org.phalanx.testkit.process;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Class paths for JVMs started by this one. */
public final class Classpath {
    private Classpath() {
    }

    /**
     * This JVM's class path with absolute entries, so that a process started in another folder
     * finds the same classes (a test's or the bench's classpath holds the controller, its
     * dependencies and the fault-injecting driver).
     */
    public static String current() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            if (e.endsWith("*")) {
                entries.add(Path.of(e.substring(0, e.length() - 1)).toAbsolutePath() + File.separator + "*");
            } else {
                entries.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
