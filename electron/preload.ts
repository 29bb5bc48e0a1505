/** Exposes the few host actions to the web UI running in the Electron window (and nowhere else). */
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('hearthHost', {
  pickFolder: (): Promise<string | null> => ipcRenderer.invoke('hearth:pick-folder'),
});
