//! TLS to PostgreSQL, against the machine's server with a certificate this
//! test makes: a CA of its own signs a server certificate for `localhost`
//! and `127.0.0.1`; the files are written on the server's host through the
//! server itself (`COPY … TO PROGRAM`, as its superuser) and the server is
//! told to use them (`ALTER SYSTEM`, `pg_reload_conf()`). When the test
//! ends the server's own TLS settings are put back.
//!
//! Then `sslmode` is honoured as libpq honours it: `require` encrypts
//! without checking the certificate, `verify-full` checks it against
//! `sslrootcert` and refuses a server signed by another CA, `disable` talks
//! plaintext — and the service runs its matches over `verify-full`.

use std::time::{Duration, Instant};

use qipan::storage::{Database, DatabaseSettings, Encryption};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use serde_json::json;
use sqlx::{Connection, Executor, PgConnection, Row};

use crate::db::{postgres_server, settings, Backend, TestDb};
use crate::helpers::spawn_app_with;

/// A CA of the test's own: its PEM, and the server certificate and key it
/// signed for `localhost` and `127.0.0.1`.
struct Authority {
    ca_pem: String,
    server_pem: String,
    server_key_pem: String,
}

impl Authority {
    fn new(name: &str) -> Authority {
        let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        ca.distinguished_name.push(DnType::CommonName, name);
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().expect("CA key"))
            .expect("CA certificate");
        let key = KeyPair::generate().expect("server key");
        let mut server =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
                .expect("server parameters");
        server
            .distinguished_name
            .push(DnType::CommonName, "qipan test PostgreSQL");
        let server = server.signed_by(&key, &ca).expect("server certificate");
        Authority {
            ca_pem: ca.pem(),
            server_pem: server.pem(),
            server_key_pem: key.serialize_pem(),
        }
    }

    /// Its CA certificate as a file for `sslrootcert`.
    fn root_file(&self, tag: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!(
            "qipan-test-{tag}-{}.crt",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::write(&path, &self.ca_pem).expect("the CA file is written");
        path
    }
}

/// One TLS setting of the server as it was: its value and whether it came
/// from `ALTER SYSTEM` (`postgresql.auto.conf`).
struct Setting {
    name: &'static str,
    value: String,
    from_auto_conf: bool,
}

/// The server serving the test's certificate until dropped.
struct ServerCertificate {
    server: String,
    before: Vec<Setting>,
}

/// `text` as a PostgreSQL string literal.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

impl ServerCertificate {
    /// Installs `authority`'s server certificate, or `None` when the server
    /// cannot be changed (not a superuser) outside CI.
    async fn install(authority: &Authority) -> Option<ServerCertificate> {
        let server = postgres_server();
        let mut admin = PgConnection::connect(&format!("{server}/test"))
            .await
            .expect("PostgreSQL answers");
        let superuser: bool = admin
            .fetch_one("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            .await
            .expect("roles can be read")
            .get(0);
        if !superuser {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and the PostgreSQL user is not a superuser: TLS cannot be set up"
            );
            crate::skips::skipped("PostgreSQL TLS", "the PostgreSQL user is not a superuser");
            return None;
        }
        let mut before = Vec::new();
        for name in ["ssl", "ssl_cert_file", "ssl_key_file"] {
            let row = admin
                .fetch_one(
                    format!("SELECT setting, coalesce(sourcefile, '') FROM pg_settings WHERE name = '{name}'")
                        .as_str(),
                )
                .await
                .expect("settings can be read");
            let source: String = row.get(1);
            before.push(Setting {
                name,
                value: row.get(0),
                from_auto_conf: source.ends_with("postgresql.auto.conf"),
            });
        }
        let data: String = admin
            .fetch_one("SHOW data_directory")
            .await
            .expect("the data directory")
            .get(0);
        let cert_file = format!("{data}/qipan-test-server.crt");
        let key_file = format!("{data}/qipan-test-server.key");
        for (file, pem) in [
            (&cert_file, &authority.server_pem),
            (&key_file, &authority.server_key_pem),
        ] {
            let lines: Vec<String> = pem.lines().map(literal).collect();
            // The key must not be readable by others, or the server
            // refuses it: written with umask 077.
            let copy = format!(
                "COPY (SELECT unnest(ARRAY[{}]::text[])) TO PROGRAM {}",
                lines.join(", "),
                literal(&format!("umask 077 && cat > {file}"))
            );
            admin
                .execute(copy.as_str())
                .await
                .expect("the certificate files are written");
        }
        for statement in [
            format!("ALTER SYSTEM SET ssl_cert_file = {}", literal(&cert_file)),
            format!("ALTER SYSTEM SET ssl_key_file = {}", literal(&key_file)),
            "ALTER SYSTEM SET ssl = on".to_owned(),
            "SELECT pg_reload_conf()".to_owned(),
        ] {
            admin
                .execute(statement.as_str())
                .await
                .expect("the server takes the certificate");
        }
        Some(ServerCertificate { server, before })
    }

    async fn restore(server: &str, before: &[Setting]) {
        let Ok(mut admin) = PgConnection::connect(&format!("{server}/test")).await else {
            return;
        };
        for setting in before {
            let statement = if setting.from_auto_conf {
                format!(
                    "ALTER SYSTEM SET {} = {}",
                    setting.name,
                    literal(&setting.value)
                )
            } else {
                format!("ALTER SYSTEM RESET {}", setting.name)
            };
            let _ = admin.execute(statement.as_str()).await;
        }
        let _ = admin.execute("SELECT pg_reload_conf()").await;
        let _ = admin
            .execute(
                "COPY (SELECT 1) TO PROGRAM 'rm -f qipan-test-server.crt qipan-test-server.key'",
            )
            .await;
    }
}

impl Drop for ServerCertificate {
    fn drop(&mut self) {
        // Drop runs inside the test's runtime: restore from a thread with
        // its own.
        let server = self.server.clone();
        let before = std::mem::take(&mut self.before);
        let _ = std::thread::spawn(move || {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                rt.block_on(ServerCertificate::restore(&server, &before));
            }
        })
        .join();
    }
}

async fn connect(url: &str) -> anyhow::Result<Database> {
    Database::connect(&DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
        acquire_timeout: Duration::from_secs(5),
    })
    .await
}

/// Connects to `url` until the server presents the test's certificate
/// (a reload takes effect a moment after it is asked for).
async fn connect_once_reloaded(url: &str) -> Database {
    let started = Instant::now();
    loop {
        match connect(url).await {
            Ok(db) => return db,
            Err(e) if started.elapsed() > Duration::from_secs(10) => {
                panic!("{url}: still refused 10 s after the reload: {e:#}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_connections_honour_sslmode() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let ours = Authority::new("qipan test CA");
    let theirs = Authority::new("some other CA");
    let Some(_installed) = ServerCertificate::install(&ours).await else {
        return;
    };
    let root = ours.root_file("ca");
    let other_root = theirs.root_file("other-ca");
    let verify_full = format!(
        "{}?sslmode=verify-full&sslrootcert={}",
        db.url,
        root.display()
    );

    // verify-full with the CA that signed the server's certificate: the
    // certificate and its name (127.0.0.1, then localhost) are checked.
    let checked = connect_once_reloaded(&verify_full).await;
    assert!(
        matches!(checked.encryption().await, Ok(Some(Encryption::Tls(_)))),
        "verify-full talks TLS"
    );
    let by_name = verify_full.replacen("127.0.0.1", "localhost", 1);
    connect(&by_name)
        .await
        .unwrap_or_else(|e| panic!("{by_name}: {e:#}"));

    // verify-full with another CA: refused, saying why.
    let wrong = format!(
        "{}?sslmode=verify-full&sslrootcert={}",
        db.url,
        other_root.display()
    );
    let Err(refused) = connect(&wrong).await else {
        panic!("a certificate of another CA is accepted");
    };
    let why = format!("{refused:#}").to_lowercase();
    assert!(why.contains("certificate"), "{why}");

    // require: encrypted, the certificate not checked.
    let required = connect(&format!("{}?sslmode=require", db.url))
        .await
        .expect("sslmode=require connects");
    let Ok(Some(Encryption::Tls(version))) = required.encryption().await else {
        panic!("sslmode=require talks TLS");
    };
    assert!(version.starts_with("TLSv1."), "{version}");

    // The default (prefer) encrypts when the server offers TLS; disable
    // does not.
    let preferred = connect(&db.url).await.expect("the default connects");
    assert!(matches!(
        preferred.encryption().await,
        Ok(Some(Encryption::Tls(_)))
    ));
    let plain = connect(&format!("{}?sslmode=disable", db.url))
        .await
        .expect("sslmode=disable connects");
    assert_eq!(
        plain.encryption().await.ok(),
        Some(Some(Encryption::Plaintext))
    );

    // The service plays its matches over verify-full.
    let app = spawn_app_with(settings(&verify_full)).await;
    let (id, token, _) = crate::live::create(&app, json!({ "game": "xiangqi" })).await;
    let v = crate::live::play(&app, &id, &token, json!(["h2e2"])).await;
    assert_eq!(v["version"], 2);

    let _ = std::fs::remove_file(root);
    let _ = std::fs::remove_file(other_root);
}
