/**
 * The splash greets once per browser session (decision 0054): the session key its inline script
 * sets, and the attribute it puts on <html> on a later page so that CSS skips the splash. Shared
 * by the server's splash HTML and the cart page, which leaves before painting when it is empty.
 */
export const SPLASH_SEEN_KEY = "va-splash-seen";
export const SPLASH_SEEN_ATTRIBUTE = "data-splash-seen";
