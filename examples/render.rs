//! Renders an SVG picture sowbridge wrote to a PNG, with the renderer the tests use (resvg)
//! and the system's fonts, to look at a picture or to put one in the documentation:
//!
//! ```text
//! cargo run --example render -- battles/T20-18.28/battle.svg docs/medellin-battle.png [--scale 1.5]
//! cargo run --example render -- map.svg medellin.png --crop 650,1750,1000,650
//! ```
//!
//! `--crop X,Y,W,H` keeps only that part of the picture (in the picture's own pixels).
#![allow(clippy::print_stderr)]

use std::process::ExitCode;

use resvg::{tiny_skia, usvg};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output) = match (args.first(), args.get(1)) {
        (Some(i), Some(o)) => (i, o),
        _ => {
            eprintln!("usage: render IN.svg OUT.png [--scale S]");
            return ExitCode::from(2);
        }
    };
    let mut scale = 1.0f32;
    let mut crop = None;
    let mut rest = args[2..].iter();
    while let Some(a) = rest.next() {
        let v = rest.next().map(String::as_str).unwrap_or("");
        match a.as_str() {
            "--scale" => match v.parse::<f32>() {
                Ok(s) if s > 0.0 => scale = s,
                _ => {
                    eprintln!("--scale: a number above 0");
                    return ExitCode::from(2);
                }
            },
            "--crop" => {
                let n: Vec<f32> = v.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                match n[..] {
                    [x, y, w, h] if w > 0.0 && h > 0.0 => crop = Some((x, y, w, h)),
                    _ => {
                        eprintln!("--crop: X,Y,W,H");
                        return ExitCode::from(2);
                    }
                }
            }
            _ => {
                eprintln!("usage: render IN.svg OUT.png [--scale S] [--crop X,Y,W,H]");
                return ExitCode::from(2);
            }
        }
    }
    match render(input, output, scale, crop) {
        Ok((w, h)) => {
            eprintln!("wrote {output} ({w} x {h})");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{input}: {e}");
            ExitCode::FAILURE
        }
    }
}

type Crop = (f32, f32, f32, f32);

fn render(input: &str, output: &str, scale: f32, crop: Option<Crop>) -> Result<(u32, u32), String> {
    let data = std::fs::read(input).map_err(|e| e.to_string())?;
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_data(&data, &opt).map_err(|e| e.to_string())?;
    let (x, y, w, h) = crop.unwrap_or((0.0, 0.0, tree.size().width(), tree.size().height()));
    let (pw, ph) = ((w * scale).ceil() as u32, (h * scale).ceil() as u32);
    let mut pixmap = tiny_skia::Pixmap::new(pw, ph).ok_or("the picture has no size, or is too large")?;
    let t = tiny_skia::Transform::from_translate(-x, -y).post_scale(scale, scale);
    resvg::render(&tree, t, &mut pixmap.as_mut());
    pixmap.save_png(output).map_err(|e| e.to_string())?;
    Ok((pw, ph))
}
