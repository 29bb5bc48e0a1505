/** The tray icon: open the library, show the data folder, quit. */
import { Menu, Tray, nativeImage, shell } from 'electron';

export function createTray(opts: { url: string; dataDir: string; open: () => void; quit: () => void }): Tray {
  // A 16×16 template image drawn in code, so no binary asset is needed in the repository.
  const icon = nativeImage.createFromDataURL(
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAOklEQVQ4T2NkoBAwUqifYdQABkrDgJGR8T8DAwMDIyMjI6VhQLEBjJSGwWgYUB4GoGhkJDUNDHoAAJjEBBEhHcOIAAAAAElFTkSuQmCC',
  );
  const tray = new Tray(icon);
  tray.setToolTip('Hearth');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Hearth', click: opts.open },
      { label: `Open in browser (${opts.url})`, click: () => void shell.openExternal(opts.url) },
      { label: 'Show data folder', click: () => void shell.openPath(opts.dataDir) },
      { type: 'separator' },
      { label: 'Quit Hearth', click: opts.quit },
    ]),
  );
  tray.on('click', opts.open);
  return tray;
}
