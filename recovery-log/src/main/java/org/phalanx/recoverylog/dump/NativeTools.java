package org.phalanx.recoverylog.dump;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/** Running the engines' own dump programs, and what they need to know about a JDBC connection. */
final class NativeTools {
    private NativeTools() {
    }

    /** Whether {@code program} is an executable on the PATH (what {@code which} answers). */
    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return true;
            }
        }
        return false;
    }

    /** Host and port of a server connection, parsed from its JDBC URL. */
    record Server(String host, int port, String database, String user) {
    }

    static Server server(Connection c, int defaultPort, String database) throws SQLException {
        String url = c.getMetaData().getURL();
        int start = url.indexOf("//");
        if (start < 0) {
            throw new SQLException("cannot find the server in JDBC URL " + url);
        }
        String rest = url.substring(start + 2);
        int end = rest.length();
        for (char stop : new char[] {'/', '?', ','}) {
            int i = rest.indexOf(stop);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        String hostPort = rest.substring(0, end);
        String host = hostPort;
        int port = defaultPort;
        int colon = hostPort.lastIndexOf(':');
        if (colon > 0 && !hostPort.endsWith("]")) {
            host = hostPort.substring(0, colon);
            port = Integer.parseInt(hostPort.substring(colon + 1));
        }
        String user = c.getMetaData().getUserName();
        if (user != null && user.contains("@")) {
            user = user.substring(0, user.indexOf('@')); // MariaDB reports user@host
        }
        return new Server(host, port, database, user);
    }

    /**
     * Runs a command; stdin from {@code input} if given, stdout to {@code output} if given.
     *
     * @throws DumpException if it exits with a non-zero status (the message holds its stderr)
     */
    static void run(List<String> command, Map<String, String> env, Path input, Path output) throws DumpException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        if (input != null) {
            pb.redirectInput(input.toFile());
        }
        if (output != null) {
            pb.redirectOutput(output.toFile());
        } else {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        try {
            Process p = pb.start();
            byte[] stderr;
            try (InputStream err = p.getErrorStream()) {
                stderr = err.readAllBytes();
            }
            int status = p.waitFor();
            if (status != 0) {
                String text = new String(stderr, StandardCharsets.UTF_8).trim();
                if (text.length() > 2000) {
                    text = text.substring(text.length() - 2000);
                }
                throw new DumpException(command.get(0) + " failed with status " + status + ": " + text);
            }
        } catch (IOException e) {
            throw new DumpException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DumpException(command.get(0) + " was interrupted", e);
        }
    }
}
