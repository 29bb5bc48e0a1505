/** The upload feature's public surface: hearing of finished uploads (the grids refresh). */
export { useUploadSettled } from './use-upload-settled';
