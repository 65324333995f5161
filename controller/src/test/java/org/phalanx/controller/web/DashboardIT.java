package org.phalanx.controller.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (issue 22, done-when 3): log in, watch the charts
 * move while a workload runs, disable and enable a backend from the page, verify the replicas and
 * see the one changed behind the controller's back. Screenshots of each
 * view are kept in target/dashboard-screenshots.
 */
class DashboardIT {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @BeforeAll
    static void browserInstalled() {
        HeadlessChromium.assumeInstalled();
    }

    @Test
    void logInWatchTheChartsAndDisableAndEnableABackend() throws Exception {
        try (MonitoredController c = new MonitoredController(dir.resolve("cluster"), "");
             Workload workload = new Workload(c)) {
            ChromeDriver browser = HeadlessChromium.start(dir.resolve("profile"));
            try {
                // an element found on a page that a form's post then replaces goes stale: look again
                WebDriverWait wait = new WebDriverWait(browser, WAIT);
                wait.ignoring(StaleElementReferenceException.class);
                browser.get(c.uri("/").toString());
                wait.until(d -> d.getCurrentUrl().endsWith("/dashboard/login.html"));

                logIn(browser, "admin", "wrong");
                wait.until(d -> d.getCurrentUrl().contains("failed"));
                wait.until(d -> d.findElement(By.id("login-failed")).isDisplayed());
                HeadlessChromium.screenshot(browser, "1-login-refused");

                logIn(browser, MonitoredController.ADMIN, MonitoredController.ADMIN_PASSWORD);
                wait.until(d -> d.getCurrentUrl().endsWith("/dashboard/"));
                wait.until(d -> !d.findElements(By.cssSelector("section.vdb[data-vdb='vdb']")).isEmpty());

                // the charts grow a point a second, and show the workload's throughput
                int pointsBefore = points(browser, "throughput-vdb");
                wait.until(d -> points(browser, "throughput-vdb") >= pointsBefore + 3);
                wait.until(d -> lastThroughput(browser) > 0);
                HeadlessChromium.screenshot(browser, "2-dashboard-under-load");

                clickBackendAction(browser, wait, "db2", "disable");
                wait.until(d -> state(browser, "db2").equals("DISABLED"));
                assertEquals("DISABLED", c.vdb().getBackendStates().get("db2"));
                HeadlessChromium.screenshot(browser, "3-backend-disabled");

                clickBackendAction(browser, wait, "db2", "enable");
                wait.until(d -> state(browser, "db2").equals("ENABLED"));
                assertEquals("ENABLED", c.vdb().getBackendStates().get("db2"));
                wait.until(d -> d.findElement(By.cssSelector("#actions tbody")).getText().contains("db2 enabled"));
                HeadlessChromium.screenshot(browser, "4-backend-enabled");

                // a row changed behind the controller's back on db3, found from the page while the workload runs
                try (Connection direct = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("cluster/db3.db"));
                     Statement s = direct.createStatement()) {
                    s.execute("PRAGMA busy_timeout = 10000");
                    s.executeUpdate("UPDATE t SET v = 'tampered' WHERE id = 1");
                }
                browser.findElement(By.cssSelector("section.vdb[data-vdb='vdb'] button[data-action='verify']")).click();
                wait.until(d -> d.findElement(By.cssSelector("section.vdb[data-vdb='vdb'] .verify-status")).getText()
                        .contains("1 row differs; outvoted: db3"));
                String differences = browser.findElement(By.cssSelector("tr[data-table='t'] td.differences")).getText();
                assertEquals("id=1 CHANGED on db3", differences.strip());
                HeadlessChromium.screenshot(browser, "5-verification");

                browser.findElement(By.id("logout")).click();
                wait.until(d -> d.getCurrentUrl().endsWith("/dashboard/login.html"));
                browser.get(c.uri("/dashboard/").toString());
                wait.until(d -> d.getCurrentUrl().endsWith("/dashboard/login.html"));
            } finally {
                browser.quit();
            }
            assertTrue(workload.requests() > 0);
        }
    }

    @Test
    void theApiRefusesWhatAPageOfAnotherSiteOrAStrangerCouldSend() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "")) {
            assertEquals(401, c.get("/api/overview").statusCode());
            assertEquals(303, c.get("/dashboard/").statusCode(), "the page itself sends strangers to the login page");
            assertEquals(200, c.get("/dashboard/login.html").statusCode());
            assertEquals(200, c.get("/dashboard/chart.umd.js").statusCode(), "Chart.js is served from the jar");

            String cookie = logIn(c);
            assertEquals(200, c.get("/api/overview", "Cookie", cookie).statusCode());
            String disable = "{\"vdb\":\"vdb\",\"action\":\"disable\",\"backend\":\"db1\"}";
            assertEquals(403, post(c, "/api/action", disable, "Cookie", cookie).statusCode(),
                    "without X-Phalanx-Request (a cross-site form cannot send it)");
            assertEquals(401, post(c, "/api/action", disable, "X-Phalanx-Request", "1").statusCode(), "without a session");
            assertEquals("ENABLED", c.vdb().getBackendStates().get("db1"));

            HttpResponse<String> unknown = post(c, "/api/action", "{\"vdb\":\"vdb\",\"action\":\"drop\"}",
                    "Cookie", cookie, "X-Phalanx-Request", "1");
            assertEquals(400, unknown.statusCode());
            assertTrue(unknown.body().contains("unknown action"), unknown.body());
            assertEquals(404, post(c, "/api/action", "{\"vdb\":\"nope\",\"action\":\"checkpoint\"}",
                    "Cookie", cookie, "X-Phalanx-Request", "1").statusCode());
            assertEquals(400, post(c, "/api/action", "not json", "Cookie", cookie, "X-Phalanx-Request", "1").statusCode());
        }
    }

    @Test
    void garbageOnTheHttpPortIsRefusedAndTheRestServed() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "")) {
            for (byte[] garbage : List.of(new byte[]{0, 1, 2, 3, (byte) 0xff, '\r', '\n', '\r', '\n'},
                    "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                    ("GET /" + "a".repeat(100_000) + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII))) {
                try (Socket s = new Socket("127.0.0.1", c.controller.httpPort())) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(garbage);
                    s.shutdownOutput();
                    String reply = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    assertTrue(reply.isEmpty() || reply.startsWith("HTTP/1.1 4"), reply);
                }
            }
            assertEquals(200, c.get("/metrics").statusCode());
            c.workload(1);
            assertEquals(1, c.vdb().getBackendStates().values().stream().distinct().count(), "nothing else changed");
        }
    }

    @Test
    void noAdminNoDashboard() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "", false)) {
            assertEquals(404, c.get("/dashboard/").statusCode());
            assertEquals(404, c.get("/api/overview").statusCode());
            assertEquals(200, c.get("/metrics").statusCode());
        }
    }

    private static String logIn(MonitoredController c) throws Exception {
        HttpResponse<String> reply = c.http.send(HttpRequest.newBuilder(c.uri("/api/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("user=admin&password=" + MonitoredController.ADMIN_PASSWORD))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(303, reply.statusCode());
        String setCookie = reply.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), setCookie);
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    private static HttpResponse<String> post(MonitoredController c, String path, String body, String... headers)
            throws Exception {
        return c.http.send(HttpRequest.newBuilder(c.uri(path)).headers(headers)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void logIn(ChromeDriver browser, String user, String password) {
        browser.findElement(By.id("login-user")).sendKeys(user);
        browser.findElement(By.id("login-password")).sendKeys(password);
        browser.findElement(By.id("login-submit")).click();
    }

    private static int points(ChromeDriver browser, String canvas) {
        return Integer.parseInt(browser.findElement(By.id(canvas)).getAttribute("data-points"));
    }

    private static double lastThroughput(ChromeDriver browser) {
        Object v = browser.executeScript("const d = Chart.getChart('throughput-vdb').data.datasets[0].data;"
                + " return d.length ? d[d.length - 1] : 0;");
        return ((Number) v).doubleValue();
    }

    private static String state(ChromeDriver browser, String backend) {
        return browser.findElement(By.cssSelector("tr[data-backend='" + backend + "'] .state")).getText();
    }

    private static void clickBackendAction(ChromeDriver browser, WebDriverWait wait, String backend, String action) {
        By button = By.cssSelector("tr[data-backend='" + backend + "'] button[data-action='" + action + "']");
        WebElement b = wait.until(d -> {
            WebElement e = d.findElement(button);
            return e.isEnabled() ? e : null;
        });
        b.click();
    }

    /** Clients writing and reading through the controller until closed. */
    private static final class Workload implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final java.util.concurrent.atomic.AtomicLong requests = new java.util.concurrent.atomic.AtomicLong();
        private final Thread thread;

        Workload(MonitoredController c) throws Exception {
            c.workload(1);
            thread = new Thread(() -> {
                try (var conn = c.connect(); var s = conn.createStatement()) {
                    while (!stop.get()) {
                        s.executeUpdate("INSERT INTO t (v) VALUES ('load')");
                        s.executeQuery("SELECT COUNT(*) FROM t").close();
                        requests.addAndGet(2);
                        Thread.sleep(5);
                    }
                } catch (Exception e) {
                    if (!stop.get()) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "dashboard-workload");
            thread.start();
        }

        long requests() {
            return requests.get();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(10_000);
        }
    }
}
