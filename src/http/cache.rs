//! A bounded in-memory cache of rendered state views.
//!
//! A view is a pure function of its share URL (game, code and base URL), so
//! a hot position — the start, a link shared in a chat — is rendered once and
//! then served from memory. The budget is in bytes of body.

use quick_cache::sync::Cache;
use quick_cache::Weighter;

use super::answer::Rendered;

#[derive(Clone)]
struct BodySize;

impl Weighter<String, Rendered> for BodySize {
    fn weight(&self, _key: &String, val: &Rendered) -> u64 {
        val.weight()
    }
}

/// Rendered views by share URL.
pub struct ViewCache {
    inner: Option<Cache<String, Rendered, BodySize>>,
}

impl ViewCache {
    /// A cache holding up to `megabytes` MiB of bodies; 0 disables it.
    pub fn new(megabytes: u64) -> ViewCache {
        let bytes = megabytes * 1024 * 1024;
        ViewCache {
            inner: (bytes > 0)
                .then(|| Cache::with_weighter((bytes / 8192) as usize + 16, bytes, BodySize)),
        }
    }

    /// The cached view for `key`, or `render`'s, which is then kept.
    ///
    /// # Errors
    ///
    /// Whatever `render` fails with (failures are not cached).
    pub fn get_or_render<E>(
        &self,
        key: &str,
        render: impl FnOnce() -> Result<Rendered, E>,
    ) -> Result<Rendered, E> {
        match &self.inner {
            Some(cache) => cache.get_or_insert_with(key, || render().map(Rendered::kept)),
            None => render(),
        }
    }

    /// Whether views are kept at all (`--cache-mb` above 0).
    pub fn is_enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// The cached body for `key`, if any.
    pub fn get(&self, key: &str) -> Option<Rendered> {
        self.inner.as_ref().and_then(|cache| cache.get(key))
    }

    /// Keeps `rendered` under `key` (for bodies rendered asynchronously,
    /// such as pictures; two requests may both render one, the last kept).
    pub fn insert(&self, key: String, rendered: Rendered) {
        if let Some(cache) = &self.inner {
            cache.insert(key, rendered.kept());
        }
    }
}
