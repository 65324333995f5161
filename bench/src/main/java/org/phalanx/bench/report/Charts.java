package org.phalanx.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The few chart shapes RESULTS.md uses, with one look (XChart, PNG). */
public final class Charts {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 480;

    private Charts() {
    }

    public static XYChart lines(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    public static void series(XYChart chart, String name, List<? extends Number> x, List<? extends Number> y) {
        List<Number> fx = new java.util.ArrayList<>();
        List<Number> fy = new java.util.ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            if (Double.isFinite(y.get(i).doubleValue())) { // a variant that completed nothing has no point
                fx.add(x.get(i));
                fy.add(y.get(i));
            }
        }
        if (fx.isEmpty()) {
            return;
        }
        XYSeries s = chart.addSeries(name, fx, fy);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    /** A dashed reference line (ideal scaling, a target). */
    public static void reference(XYChart chart, String name, List<? extends Number> x, List<? extends Number> y) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }

    public static CategoryChart bars(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }
}
