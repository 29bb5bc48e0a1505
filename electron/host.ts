/**
 * Host actions the web UI cannot do itself, offered to the Electron window only: choosing a folder
 * on this machine with the native picker (to add it as a repository). The path never travels
 * through the LAN API; the renderer hands it straight to the local server.
 */
import { dialog, ipcMain, type BrowserWindow } from 'electron';

export function registerHostActions(getWindow: () => BrowserWindow | null): void {
  ipcMain.handle('hearth:pick-folder', async () => {
    const win = getWindow();
    const result = win
      ? await dialog.showOpenDialog(win, { properties: ['openDirectory', 'createDirectory'], title: 'Choose a folder of photos' })
      : await dialog.showOpenDialog({ properties: ['openDirectory', 'createDirectory'], title: 'Choose a folder of photos' });
    return result.canceled ? null : (result.filePaths[0] ?? null);
  });
}
