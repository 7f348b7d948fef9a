//! Building a kernel: its source compiled by the `rustc` the user has (no cargo, no crates, no
//! network) into a shared library in the cache, under the name of its key, within a time limit
//! (the compiler is killed past it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a build may take before the compiler is stopped.
pub(crate) const TIME_LIMIT: Duration = Duration::from_secs(240);

/// The environment variable that names the cache folder (for tests, and for a cluster that
/// ships a cache built once).
pub const CACHE_VAR: &str = "PARADOX_CACHE_DIR";

/// Where built kernels are kept: `$PARADOX_CACHE_DIR`, else the user's cache folder.
pub(crate) fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(CACHE_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("paradox").join("kernels")
}

/// The shared library of a kernel with this key in the cache folder `cache`.
pub(crate) fn library_path(cache: &Path, key: &str) -> PathBuf {
    cache.join(format!("{key}.{}", std::env::consts::DLL_EXTENSION))
}

/// The compiler to build with: `$RUSTC`, else `rustc` on the path.
fn rustc() -> PathBuf {
    std::env::var_os("RUSTC").filter(|r| !r.is_empty()).map_or_else(|| PathBuf::from("rustc"), PathBuf::from)
}

/// Whether a compiler can be run here, and its version line if so.
pub(crate) fn toolchain() -> Option<String> {
    let out = Command::new(rustc()).arg("--version").stdin(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Removes the build folders in `cache` left by paradox runs that ended during a build (a
/// person who quit `play` while its engine was built): those older than the time limit, which
/// no build still going can be.
fn sweep_abandoned(cache: &Path, limit: Duration) {
    let Ok(entries) = std::fs::read_dir(cache) else { return };
    for entry in entries.flatten() {
        let abandoned = entry.file_name().to_string_lossy().starts_with(BUILD_PREFIX)
            && entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age > limit));
        if abandoned {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// How the names of build folders begin.
const BUILD_PREFIX: &str = "build-";

/// Compiles `source` into the library at `dest`, replacing it only once it is complete.
pub(crate) fn compile(source: &str, dest: &Path, limit: Duration) -> Result<Duration, String> {
    let dir = dest.parent().ok_or("the cache has no folder")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make the cache folder {}: {e}", dir.display()))?;
    sweep_abandoned(dir, limit);
    let work = tempfile::Builder::new()
        .prefix(BUILD_PREFIX)
        .tempdir_in(dir)
        .map_err(|e| format!("cannot make a build folder in {}: {e}", dir.display()))?;
    let src = work.path().join("kernel.rs");
    std::fs::write(&src, source).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    let lib = work.path().join(dest.file_name().ok_or("no file name")?);
    let started = Instant::now();
    let mut child = Command::new(rustc())
        .args(["--edition", "2021", "--crate-type", "cdylib", "--crate-name", "paradox_kernel"])
        .args(["-C", "opt-level=3", "-C", "panic=abort", "-C", "debuginfo=0"])
        .arg("-o")
        .arg(&lib)
        .arg(&src)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the Rust compiler ({}): {e}", rustc().display()))?;
    let stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            use std::io::Read;
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the build took longer than its limit of {} s and was stopped", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("the Rust compiler could not be waited for: {e}")),
        }
    };
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        let first: String = errors.lines().take(12).collect::<Vec<_>>().join("\n");
        return Err(format!("the Rust compiler failed on the generated kernel:\n{first}"));
    }
    std::fs::rename(&lib, dest)
        .map_err(|e| format!("cannot put the kernel in the cache at {}: {e}", dest.display()))?;
    Ok(started.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::SystemTime;

    #[test]
    fn only_build_folders_older_than_the_time_limit_are_swept() {
        let cache = tempfile::tempdir().expect("a folder");
        let made = |name: &str, age: u64| {
            let path = cache.path().join(name);
            std::fs::create_dir(&path).expect("a folder");
            let then = SystemTime::now() - Duration::from_secs(age);
            std::fs::File::open(&path).and_then(|f| f.set_modified(then)).expect("its time set");
            path
        };
        let abandoned = made("build-abandoned", 1000);
        let going = made("build-going", 100);
        let other = made("kept", 1000);
        sweep_abandoned(cache.path(), Duration::from_secs(240));
        assert!(!abandoned.exists(), "a build folder older than the limit goes");
        assert!(going.exists(), "a build that may still be going stays");
        assert!(other.exists(), "what is not a build folder stays");
    }
}
