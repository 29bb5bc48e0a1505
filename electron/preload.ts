/**
 * What the web UI may ask of the desktop app, exposed in its window only (`window.hearthHost`; absent in
 * any browser, which is how the renderer knows it runs inside the app).
 *  - openInBrowser(): opens the page the window shows in the system browser, for what the window cannot
 *    do itself (a passkey: desktop/main-window.ts explains how that is detected). Answers false when the
 *    page is not Hearth's own.
 */
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('hearthHost', {
  openInBrowser: (): Promise<boolean> => ipcRenderer.invoke('hearth:open-in-browser'),
});
