package org.phalanx.controller.web;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Debian's Chromium and ChromeDriver (installed by .ci/run), driven by Selenium: headless, no
 * sandbox (tests run as root), nothing fetched from the internet. Without them a test is skipped
 * with the reason, unless PHALANX_REQUIRE_SERVERS=1 (CI), where it fails.
 */
final class HeadlessChromium {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Where screenshots are kept as test artifacts. */
    static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");

    private HeadlessChromium() {
    }

    static void assumeInstalled() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String reason = "Chromium and ChromeDriver are not installed (apt-get install chromium chromium-driver;"
                    + " .ci/run installs them)";
            if (DatabaseServer.required()) {
                fail(reason);
            }
            Assumptions.abort(reason);
        }
    }

    static ChromeDriver start(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1800", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().implicitlyWait(Duration.ZERO);
        return driver;
    }

    static Path screenshot(ChromeDriver driver, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }
}
