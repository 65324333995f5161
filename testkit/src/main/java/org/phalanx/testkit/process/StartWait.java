package org.phalanx.testkit.process;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Waits for a starting controller's conditions; fails at once if the process exits meanwhile. */
final class StartWait {
    private final ControllerProcess controller;
    private final long deadline;

    StartWait(ControllerProcess controller, long deadlineNanos) {
        this.controller = controller;
        this.deadline = deadlineNanos;
    }

    void await(List<Integer> ports, List<String> outputs, Map<String, ControllerProcessBuilder.ReadyCheck> checks)
            throws IOException, InterruptedException {
        for (int port : ports) {
            while (!Ports.listening(port)) {
                pause("listen on port " + port, null, 100);
            }
        }
        for (String text : outputs) {
            while (!controller.output().contains(text)) {
                pause("say '" + text + "'", null, 50);
            }
        }
        for (Map.Entry<String, ControllerProcessBuilder.ReadyCheck> check : checks.entrySet()) {
            while (true) {
                try {
                    check.getValue().check();
                    break;
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception notYet) {
                    pause("pass " + check.getKey(), notYet, 100);
                }
            }
        }
    }

    private void pause(String what, Exception last, long millis) throws IOException, InterruptedException {
        Process p = controller.process();
        if (!p.isAlive()) {
            throw new IOException("the controller exited (" + p.exitValue() + ") before it would " + what + ":\n"
                    + controller.outputTail(100));
        }
        if (System.nanoTime() > deadline) {
            throw new IOException("the controller (still running) did not " + what
                    + (last == null ? "" : " (" + last.getMessage() + ")") + ":\n" + controller.outputTail(100));
        }
        Thread.sleep(millis);
    }
}
