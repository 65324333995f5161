package org.phalanx.controller.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;

/**
 * The dashboard's files, from the controller jar: its pages, script and style, and Chart.js from
 * its WebJar (so the dashboard needs no internet). Only the files named here are served.
 */
final class StaticAssets implements HttpHandler {
    private static final String OWN = "/org/phalanx/controller/web/dashboard/";

    private record Asset(String resource, String contentType) {
    }

    private final Map<String, Asset> assets;

    StaticAssets() {
        assets = Map.of(
                "/dashboard/", new Asset(OWN + "index.html", "text/html; charset=utf-8"),
                "/dashboard/login.html", new Asset(OWN + "login.html", "text/html; charset=utf-8"),
                "/dashboard/dashboard.js", new Asset(OWN + "dashboard.js", "text/javascript; charset=utf-8"),
                "/dashboard/dashboard.css", new Asset(OWN + "dashboard.css", "text/css; charset=utf-8"),
                "/dashboard/chart.umd.js", new Asset("/META-INF/resources/webjars/chart.js/" + chartJsVersion()
                        + "/dist/chart.umd.js", "text/javascript; charset=utf-8"));
    }

    /** Whether a path is a page only admins may see (the login page and the scripts are not). */
    static boolean needsLogin(String path) {
        return path.equals("/dashboard/");
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        Asset asset = assets.get(exchange.getRequestURI().getPath());
        if (asset == null || !"GET".equals(exchange.getRequestMethod())) {
            HttpReplies.error(exchange, 404, "not found: " + exchange.getRequestURI().getPath());
            return;
        }
        try (InputStream in = StaticAssets.class.getResourceAsStream(asset.resource())) {
            if (in == null) {
                HttpReplies.error(exchange, 500, "missing from the controller jar: " + asset.resource());
                return;
            }
            HttpReplies.send(exchange, 200, asset.contentType(), in.readAllBytes());
        }
    }

    private static String chartJsVersion() {
        Properties p = new Properties();
        try (InputStream in = StaticAssets.class.getResourceAsStream("/org/phalanx/controller/version.properties")) {
            p.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("version.properties is missing from the controller jar", e);
        }
        return p.getProperty("chartjs.version");
    }
}
