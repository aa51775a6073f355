//! Small inline-SVG charts for the report: lines with optional interval bands, horizontal
//! reference lines, and a histogram. Plain strings, no script, no fonts or files to fetch.

use std::fmt::Write;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 44.0;

/// Colours of successive series (colour-blind-safe palette).
pub const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
];

/// Escapes text for HTML and SVG content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// One line of a chart.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// The legend's name of the line.
    pub name: String,
    /// The line's points, (x, y).
    pub points: Vec<(f64, f64)>,
    /// Interval around the line: (x, low, high).
    pub band: Vec<(f64, f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// The lines, drawn in order.
    pub series: Vec<Series>,
    /// Horizontal reference lines with their labels (SPRT bounds, zero).
    pub rules: Vec<(f64, String)>,
}

struct Scale {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Scale {
    fn map(&self, v: f64) -> f64 {
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }
}

/// Round tick positions covering `lo..hi`, about `count` of them.
fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = hi - lo;
    if span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let raw = span / count as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn label(v: f64) -> String {
    if v.abs() >= 1000.0 || v == v.round() {
        format!("{v:.0}")
    } else if (v * 10.0).round() == v * 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The range of the finite values, widened a little; a unit range around a single value.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return None;
    }
    if hi - lo < 1e-9 {
        return Some((lo - 1.0, hi + 1.0));
    }
    let pad = 0.05 * (hi - lo);
    Some((lo - pad, hi + pad))
}

fn frame(svg: &mut String, x: &Scale, y: &Scale, x_label: &str, y_label: &str) {
    let _ = write!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}" fill="none" stroke="#888"/>"##,
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM
    );
    for t in ticks(y.lo, y.hi, 6) {
        let py = y.map(t);
        let _ = write!(
            svg,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{py:.1}" y2="{py:.1}" stroke="#eee"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            py + 4.0,
            label(t)
        );
    }
    for t in ticks(x.lo, x.hi, 8) {
        let px = x.map(t);
        let _ = write!(
            svg,
            r##"<line x1="{px:.1}" x2="{px:.1}" y1="{:.1}" y2="{:.1}" stroke="#888"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            HEIGHT - BOTTOM,
            HEIGHT - BOTTOM + 5.0,
            HEIGHT - BOTTOM + 18.0,
            label(t)
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text transform="translate(14 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"##,
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 6.0,
        escape(x_label),
        (TOP + HEIGHT - BOTTOM) / 2.0,
        escape(y_label)
    );
}

fn open(svg: &mut String, title: &str) {
    let _ = write!(
        svg,
        r##"<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" font-family="sans-serif" font-size="11"><title>{}</title>"##,
        escape(title)
    );
}

impl LineChart {
    /// The chart as an `<svg>` element; a short note instead when there is nothing to draw.
    pub fn svg(&self, title: &str) -> String {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let ys = self
            .series
            .iter()
            .flat_map(|s| {
                s.points
                    .iter()
                    .map(|p| p.1)
                    .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
            })
            .chain(self.rules.iter().map(|r| r.0));
        let finite_points = self
            .series
            .iter()
            .flat_map(|s| &s.points)
            .any(|p| p.0.is_finite() && p.1.is_finite());
        let (true, Some((x_lo, x_hi)), Some((y_lo, y_hi))) = (finite_points, range(xs), range(ys))
        else {
            // Reference lines alone would make an empty frame.
            return "<p class=\"note\">No data to plot.</p>".into();
        };
        let x = Scale {
            lo: x_lo,
            hi: x_hi,
            from: LEFT,
            to: WIDTH - RIGHT,
        };
        let y = Scale {
            lo: y_lo,
            hi: y_hi,
            from: HEIGHT - BOTTOM,
            to: TOP,
        };
        let mut svg = String::new();
        open(&mut svg, title);
        frame(&mut svg, &x, &y, &self.x_label, &self.y_label);
        for (k, s) in self.series.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let band: Vec<&(f64, f64, f64)> = s
                .band
                .iter()
                .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
                .collect();
            if band.len() > 1 {
                let mut d = String::new();
                for (i, b) in band.iter().enumerate() {
                    let _ = write!(
                        d,
                        "{}{:.1},{:.1} ",
                        if i == 0 { "M" } else { "L" },
                        x.map(b.0),
                        y.map(b.2)
                    );
                }
                for b in band.iter().rev() {
                    let _ = write!(d, "L{:.1},{:.1} ", x.map(b.0), y.map(b.1));
                }
                let _ = write!(
                    svg,
                    r##"<path d="{}Z" fill="{colour}" fill-opacity="0.15" stroke="none"/>"##,
                    d.trim_end()
                );
            }
            let points: Vec<String> = s
                .points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .map(|p| format!("{:.1},{:.1}", x.map(p.0), y.map(p.1)))
                .collect();
            if !points.is_empty() {
                let _ = write!(
                    svg,
                    r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.6"/>"##,
                    points.join(" ")
                );
            }
            let _ = write!(
                svg,
                r##"<rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{colour}"/><text x="{:.1}" y="{:.1}">{}</text>"##,
                WIDTH - RIGHT + 10.0,
                TOP + 4.0 + 16.0 * k as f64,
                WIDTH - RIGHT + 24.0,
                TOP + 13.0 + 16.0 * k as f64,
                escape(&s.name)
            );
        }
        for (value, text) in &self.rules {
            // The label sits inside the plot, just above its line at the left end: the right
            // margin holds the legend, and a path that ends at a bound (the SPRT's) ends on the
            // right.
            let py = y.map(*value);
            let _ = write!(
                svg,
                r##"<line x1="{LEFT}" x2="{:.1}" y1="{py:.1}" y2="{py:.1}" stroke="#444" stroke-dasharray="5 4"/><text x="{:.1}" y="{:.1}">{}</text>"##,
                WIDTH - RIGHT,
                LEFT + 4.0,
                (py - 4.0).max(TOP + 10.0),
                escape(text)
            );
        }
        svg.push_str("</svg>");
        svg
    }
}

/// A histogram of integer values (`value`, `count`), one bar per value, sorted by value.
pub fn histogram_svg(title: &str, bins: &[(i64, u64)], x_label: &str, y_label: &str) -> String {
    if bins.is_empty() {
        return "<p class=\"note\">No data to plot.</p>".into();
    }
    let lo = bins.iter().map(|b| b.0).min().unwrap_or(0) as f64 - 0.5;
    let hi = bins.iter().map(|b| b.0).max().unwrap_or(0) as f64 + 0.5;
    let top = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let x = Scale {
        lo,
        hi,
        from: LEFT,
        to: WIDTH - RIGHT,
    };
    let y = Scale {
        lo: 0.0,
        hi: top * 1.05,
        from: HEIGHT - BOTTOM,
        to: TOP,
    };
    let mut svg = String::new();
    open(&mut svg, title);
    frame(&mut svg, &x, &y, x_label, y_label);
    let bar = ((x.map(1.0) - x.map(0.0)) * 0.85).max(0.5);
    for &(value, count) in bins {
        let px = x.map(value as f64) - bar / 2.0;
        let py = y.map(count as f64);
        let _ = write!(
            svg,
            r##"<rect x="{px:.1}" y="{py:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{value}: {count}</title></rect>"##,
            y.map(0.0) - py,
            PALETTE[0]
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(-2.94, 2.94, 6), vec![-2.0, -1.0, 0.0, 1.0, 2.0]);
        assert_eq!(ticks(3.0, 3.0, 5), vec![3.0]);
    }

    /// Issue 16, item 9: reference-line labels (the SPRT's H1 and H0) stay inside the plot,
    /// clear of the legend in the right margin.
    #[test]
    fn rule_labels_do_not_overlap_the_legend() {
        let chart = LineChart {
            series: vec![Series {
                name: "normalized [0, 5]".into(),
                points: vec![(0.0, 0.0), (10.0, 2.5), (20.0, 3.0)],
                band: vec![],
            }],
            rules: vec![(2.94, "H1 2.94".into()), (-2.94, "H0 -2.94".into())],
            ..LineChart::default()
        };
        let svg = chart.svg("t");
        for label in ["H1 2.94", "H0 -2.94"] {
            let end = svg.find(&format!(">{label}</text>")).unwrap();
            let start = svg[..end].rfind("<text ").unwrap();
            let tag = &svg[start..end];
            let x: f64 = tag
                .split("x=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            // Starts inside the plot's left edge, far from the legend in the right margin.
            assert!(
                x > LEFT && x < (LEFT + WIDTH - RIGHT) / 2.0,
                "{label} at x={x}: {tag}"
            );
            assert!(!tag.contains("text-anchor"), "{tag}");
        }
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn charts_skip_non_finite_points() {
        let chart = LineChart {
            x_label: "games".into(),
            y_label: "Elo".into(),
            series: vec![Series {
                name: "a <b>".into(),
                points: vec![(1.0, f64::INFINITY), (2.0, 5.0), (3.0, 7.0)],
                band: vec![(2.0, 1.0, 9.0), (3.0, f64::NAN, 8.0)],
            }],
            rules: vec![(0.0, "zero".into())],
        };
        let svg = chart.svg("t");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert!(svg.contains("a &lt;b&gt;"));
        assert_eq!(
            LineChart::default().svg("t"),
            "<p class=\"note\">No data to plot.</p>"
        );
        // A reference line alone is no chart.
        let only_rules = LineChart {
            series: vec![Series {
                name: "x".into(),
                points: vec![(1.0, f64::INFINITY)],
                band: vec![],
            }],
            rules: vec![(0.0, "0".into())],
            ..LineChart::default()
        };
        assert_eq!(
            only_rules.svg("t"),
            "<p class=\"note\">No data to plot.</p>"
        );
        let h = histogram_svg("m", &[(-3, 2), (5, 7)], "margin", "games");
        assert_eq!(h.matches("<rect x=").count(), 1 + 2);
    }
}
