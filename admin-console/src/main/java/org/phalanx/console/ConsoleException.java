package org.phalanx.console;

/** A failure the console reports as one line and a non-zero exit status. */
final class ConsoleException extends RuntimeException {
    ConsoleException(String message) {
        super(message);
    }
}
