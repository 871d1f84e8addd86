//! The service describes itself: its OpenAPI document and its problem types.

use crate::helpers::spawn_app;

#[tokio::test]
async fn openapi_yaml_is_served_as_in_the_repository() {
    let app = spawn_app().await;
    let res = app.get("/openapi.yaml").await;
    assert_eq!(res.status, 200);
    let file =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).expect("openapi.yaml");
    assert_eq!(res.body, file);
}

#[tokio::test]
async fn every_problem_type_uri_is_documented() {
    let app = spawn_app().await;
    for kind in qipan::problem::ProblemKind::ALL {
        let res = app.get(&kind.type_uri()).await;
        assert_eq!(res.status, 200, "{}", kind.slug());
        let v = res.json();
        assert_eq!(v["type"], kind.type_uri());
        assert_eq!(v["status"], kind.status().as_u16());
    }
    app.get("/problems/no-such-thing")
        .await
        .problem(404, "not-found");
}
