package org.phalanx.testkit.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting and stopping a process through the builder, with {@link FakeController} as the controller. */
class ControllerProcessTest {
    @TempDir
    Path dir;

    @Test
    void startsOnceEveryConditionHoldsAndStopsOnClose() throws Exception {
        int port = Ports.free();
        Path config = dir.resolve("controller.xml");
        Files.writeString(config, String.valueOf(port));
        AtomicInteger checks = new AtomicInteger();
        ControllerProcess controller = ControllerProcess.java(FakeController.class.getName(), config)
                .systemProperty("fake.property", "on").directory(dir).awaitPorts(port).awaitStarted()
                .awaitReady("the third check", () -> {
                    if (checks.incrementAndGet() < 3) {
                        throw new IllegalStateException("not yet");
                    }
                }).start();
        try {
            assertTrue(controller.isAlive());
            assertTrue(Ports.listening(port));
            assertEquals(3, checks.get());
            assertTrue(controller.output().contains("(property on)"), controller.output());
            assertTrue(Files.exists(dir.resolve("controller.out")), "output beside the configuration by default");
        } finally {
            controller.close();
        }
        assertFalse(controller.isAlive());
    }

    @Test
    void aProcessThatExitsFailsTheStartWithItsOutput() throws Exception {
        Path config = dir.resolve("controller.xml");
        Files.writeString(config, "exit");
        IOException e = assertThrows(IOException.class, () -> ControllerProcess
                .java(FakeController.class.getName(), config).awaitPorts(Ports.free()).start());
        assertTrue(e.getMessage().contains("exited (3)") && e.getMessage().contains("told to exit"), e.getMessage());
    }

    @Test
    void aStartThatTakesTooLongIsStopped() throws Exception {
        int port = Ports.free();
        Path config = dir.resolve("controller.xml");
        Files.writeString(config, String.valueOf(port));
        IOException e = assertThrows(IOException.class, () -> ControllerProcess
                .java(FakeController.class.getName(), config).awaitOutput("something never said")
                .startTimeout(Duration.ofSeconds(2)).start());
        assertTrue(e.getMessage().contains("did not say 'something never said'"), e.getMessage());
    }

    @Test
    void theLauncherIsFoundFromAModuleFolder() {
        assertTrue(Files.isRegularFile(Launcher.SCRIPT), Launcher.SCRIPT.toString());
        assertEquals(Launcher.SCRIPT.toString(), Launcher.command("demo").get(0));
    }
}
