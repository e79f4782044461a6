/**
 * The browser shell opens the renderer at `/#token=XYZ` with a per-launch secret. The token is read once from the
 * fragment, kept in sessionStorage (so a reload still works), and removed from the visible URL so it is not
 * copied along with a screenshot or a pasted link.
 */
const storageKey = 'recto.token';

/** The token in a location fragment like `#token=abc&x=1`, or null. */
export function parseTokenFromHash(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment) return null;
  const token = new URLSearchParams(fragment).get('token');
  return token && token.length > 0 ? token : null;
}

/** The fragment with the token taken out ('' when nothing else was in it). */
export function hashWithoutToken(hash: string): string {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new URLSearchParams(fragment);
  params.delete('token');
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}

/** Reads the token (fragment first, then sessionStorage) and tidies the URL. */
export function takeLaunchToken(): string | null {
  const fromHash = parseTokenFromHash(window.location.hash);
  if (fromHash) {
    try {
      window.sessionStorage.setItem(storageKey, fromHash);
    } catch {
      // Storage can be disabled; the token still works for this page's life.
    }
    const url = window.location.pathname + window.location.search + hashWithoutToken(window.location.hash);
    window.history.replaceState(window.history.state, '', url);
    return fromHash;
  }
  try {
    return window.sessionStorage.getItem(storageKey);
  } catch {
    return null;
  }
}
