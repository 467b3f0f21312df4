/// <reference types="vite/client" />

/** Build id of the web bundle: LOOPDESK_VERSION, or the package version plus the short git sha. */
declare const __APP_VERSION__: string;
