package org.phalanx.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's pieces that need no controller: tables, progress lines, completion of commands and options. */
class ConsolePiecesTest {
    private final StringWriter out = new StringWriter();
    private final Context ctx = new Context(() -> {
        throw new ConsoleException("no controller in this test");
    }, new PrintWriter(out), new PrintWriter(out), null, false);

    @Test
    void tablesAlignColumnsAndRightAlignNumbers() {
        StringWriter s = new StringWriter();
        new Table("NAME", "ROWS").row("a", 5).row("long name", 1234).print(new PrintWriter(s));
        assertEquals("NAME       ROWS\na             5\nlong name  1234\n", s.toString());
    }

    @Test
    void progressLinesShowShareOrElapsedTime() {
        assertEquals("[###############---------------]   50%  500/1000 rows", ProgressBar.render(500, 1000, "rows", 3));
        assertTrue(ProgressBar.render(0, -1, "", 4).endsWith("]  4 s"));
    }

    @Test
    void completionOffersCommandsTopicsAndOptions() {
        ConsoleCompleter completer = new ConsoleCompleter(ConsoleMain.commandLine(new Shell.Root(), ctx, new PrintWriter(out),
                new PrintWriter(out)), ctx);
        List<String> commands = completer.candidates(List.of(), "");
        assertTrue(commands.containsAll(List.of("show", "enable", "disable", "backup", "restore", "monitor", "sql",
                "step-down", "add-member", "remove-member", "take-over", "give-back", "exit")), commands.toString());
        assertEquals(List.of("vdbs", "backends", "dumps", "checkpoints", "stats", "config", "group"),
                completer.candidates(List.of("show"), ""));
        assertTrue(completer.candidates(List.of("restore", "mydb", "b1"), "--").contains("--force"));
        assertEquals(List.of(), completer.candidates(List.of("enable"), ""), "no controller: no names, no failure");
    }

    @Test
    void usageErrorsAreOneLineWithStatusTwo() {
        StringWriter err = new StringWriter();
        int status = ConsoleMain.run(new String[]{"--user", "a", "backup", "mydb"}, new PrintWriter(out),
                new PrintWriter(err));
        assertEquals(2, status);
        assertEquals("error: Missing required parameters: '<backend>', '<dump>' (usage: help backup)\n", err.toString());
    }
}
