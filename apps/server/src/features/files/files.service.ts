// Other features store and read uploaded files through here, never through files.repository.
export { deleteFile, getFileBytes, saveFile, type NewFile, type StoredFile } from './files.repository';
