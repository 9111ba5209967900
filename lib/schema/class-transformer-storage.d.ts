// class-transformer keeps its @Type() metadata in a storage that its package index does not
// re-export and that ships no declaration next to the CJS file; this types that deep import.
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}
