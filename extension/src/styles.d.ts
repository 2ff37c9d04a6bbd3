// Stylesheets are bundled by Vite: importing one only adds it to the page. The empty body types
// the module as having no exports, so a CSS import can only be a side-effect import, never `any`.
declare module '*.css' {}
