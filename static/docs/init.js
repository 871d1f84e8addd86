// Renders /openapi.yaml with the vendored Swagger UI. Nothing is fetched
// from elsewhere: the validator badge, which would call an outside service,
// is off.
window.addEventListener("load", () => {
  window.SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#reference",
    deepLinking: true,
    tryItOutEnabled: false,
    validatorUrl: null,
    displayOperationId: false,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
  });
});
