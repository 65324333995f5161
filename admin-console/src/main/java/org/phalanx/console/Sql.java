package org.phalanx.console;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.phalanx.controller.jmx.ControllerMXBean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sql <vdb>}: runs SQL through the Phalanx driver, as an application would, and prints
 * tables. In the shell a sub-shell (statements end with ';', \q leaves); with {@code -e} one
 * statement; otherwise statements from standard input, one per line.
 */
@Command(name = "sql", description = "Run SQL on a virtual database through the Phalanx driver (\\q leaves the sub-shell).")
final class Sql extends Commands.Base {
    @Parameters(paramLabel = "<vdb>")
    String vdb;
    @Option(names = "--user", description = "A user of the virtual database (not the JMX admin).", required = true)
    String user;
    @Option(names = "--password", description = "Its password (asked for in the shell when missing).")
    String password;
    @Option(names = {"-e", "--execute"}, description = "Run this statement and leave.")
    String execute;

    Sql(Context ctx) {
        super(ctx);
    }

    @Override
    void run() throws Exception {
        ControllerMXBean controller = client().controller();
        client().vdb(vdb);
        String host = controller.getClientAddress();
        if (host.equals("0.0.0.0") || host.equals("::")) {
            host = client().host(); // listening everywhere: reach it where JMX was reached
        }
        String url = "jdbc:phalanx://" + host + ":" + controller.getClientPort() + "/" + vdb;
        LineReader reader = ctx.terminal == null ? null : LineReaderBuilder.builder().terminal(ctx.terminal).build();
        if (password == null) {
            if (reader == null) {
                throw new ConsoleException("sql needs --password in one-shot mode");
            }
            password = reader.readLine("password for " + user + ": ", '*');
        }
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        try (Connection c = DriverManager.getConnection(url, p)) {
            if (execute != null) {
                runStatement(c, execute);
            } else if (reader != null) {
                subShell(c, reader);
            } else {
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isBlank()) {
                        runStatement(c, line);
                    }
                }
            }
        } catch (SQLException e) {
            throw new ConsoleException(e.getMessage() + " [SQLState " + e.getSQLState() + "]");
        }
    }

    private void subShell(Connection c, LineReader reader) {
        println("connected to " + vdb + " as " + user + "; end statements with ';', \\q leaves");
        StringBuilder statement = new StringBuilder();
        while (true) {
            String line;
            try {
                line = reader.readLine(statement.length() == 0 ? vdb + "=> " : vdb + "-> ");
            } catch (UserInterruptException e) {
                statement.setLength(0); // Ctrl-C drops the statement being typed
                continue;
            } catch (EndOfFileException e) {
                return;
            }
            String trimmed = line.trim();
            if (statement.length() == 0 && (trimmed.equals("\\q") || trimmed.equals("exit") || trimmed.equals("quit"))) {
                return;
            }
            statement.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = statement.toString().trim();
                statement.setLength(0);
                try {
                    runStatement(c, sql.substring(0, sql.length() - 1));
                } catch (SQLException e) {
                    ctx.err.println("error: " + e.getMessage() + " [SQLState " + e.getSQLState() + "]");
                    ctx.err.flush();
                }
            }
        }
    }

    private void runStatement(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    print(rs);
                }
            } else {
                println(s.getUpdateCount() + " row(s) affected");
            }
        }
    }

    private void print(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            header.add(meta.getColumnLabel(i));
        }
        Table t = new Table(header);
        while (rs.next()) {
            Object[] row = new Object[header.size()];
            for (int i = 0; i < row.length; i++) {
                Object v = rs.getObject(i + 1);
                row[i] = v == null ? "NULL" : v;
            }
            t.row(row);
        }
        t.print(ctx.out);
        println("(" + t.size() + " row" + (t.size() == 1 ? ")" : "s)"));
    }
}
