export * from './fw-plugin-project';
