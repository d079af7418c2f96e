/** Where Turnstile's script and frame come from, the only other host a page may load from (ALTCHA is served by the site itself). */
const CAPTCHA_ORIGIN = 'https://challenges.cloudflare.com';

/**
 * The headers every response carries (pages, fragments, files and the API):
 * a Content-Security-Policy that runs only the site's own script files and
 * WebAssembly (never an inline script, and Turnstile's only when it is the captcha; ALTCHA's widget and
 * workers are the site's own files), styles of
 * the site's own (inline ones too: the code colours are style attributes),
 * no framing by other sites, no sniffing of types, no referrer beyond the
 * origin to other sites, and no powerful browser features.
 */
export function securityHeaders(turnstileOn: boolean): Readonly<Record<string, string>> {
  const captcha = turnstileOn ? ` ${CAPTCHA_ORIGIN}` : '';
  const policy = [
    "default-src 'self'",
    // WebAssembly compiled from the site's own files: the search's index reader.
    `script-src 'self' 'wasm-unsafe-eval'${captcha}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${turnstileOn ? CAPTCHA_ORIGIN : "'none'"}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  };
}
