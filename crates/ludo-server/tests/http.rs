//! The real server on port 0, spoken to over real HTTP connections.

mod support;

use support::{http, spawn_server};

#[tokio::test]
async fn the_health_check_answers_ok() {
    let server = spawn_server().await;
    assert_eq!(
        http(server.addr, "GET", "/healthz", None).await,
        (200, "ok".to_owned())
    );
}

#[tokio::test]
async fn the_home_page_is_served_at_the_root_and_for_invitation_links() {
    let server = spawn_server().await;
    for path in ["/", "/r/abcdefgh"] {
        let (status, body) = http(server.addr, "GET", path, None).await;
        assert_eq!(status, 200);
        assert!(body.contains("<title>Ludo</title>"));
    }
}

#[tokio::test]
async fn each_preset_has_a_rules_page_at_its_own_address_and_no_other_name_does() {
    let server = spawn_server().await;
    for preset in ["qdan", "classic", "vietnamese"] {
        let (status, body) = http(
            server.addr,
            "GET",
            &format!("/rules/{preset}?lang=fr"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{preset}");
        assert!(body.contains("<title>Ludo</title>"));
    }
    assert_eq!(
        http(server.addr, "GET", "/rules/monopoly", None).await.0,
        404
    );
}

#[tokio::test]
async fn a_static_directory_serves_its_files_in_place_of_the_built_in_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.css"), "body { color: red }").unwrap();
    let static_dir = dir.path().to_owned();
    let server =
        support::spawn_server_with(move |config| config.static_dir = Some(static_dir)).await;
    assert_eq!(
        http(server.addr, "GET", "/app.css", None).await,
        (200, "body { color: red }".to_owned())
    );
    let (status, body) = http(server.addr, "GET", "/", None).await;
    assert_eq!(status, 200, "files it lacks are the built-in ones");
    assert!(body.contains("<title>Ludo</title>"));
}

#[tokio::test]
async fn the_rules_api_lists_every_preset_with_its_options() {
    let server = spawn_server().await;
    let (status, body) = http(server.addr, "GET", "/api/rules", None).await;
    assert_eq!(status, 200);
    let rules: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(rules["default"], "qdan");
    let names: Vec<&str> = rules["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["qdan", "classic", "vietnamese"]);
    assert_eq!(
        rules["presets"][2]["options"]["exit_values"],
        serde_json::json!([1, 6])
    );
}

#[tokio::test]
async fn an_unknown_path_is_not_found() {
    let server = spawn_server().await;
    assert_eq!(http(server.addr, "GET", "/no/such/page", None).await.0, 404);
}

#[tokio::test]
async fn contradictory_rules_are_refused_with_the_engines_code_and_the_option_at_fault() {
    let server = spawn_server().await;
    let body = r#"{"device":"a-device-secret-long-enough","name":"Ana",
        "rules":{"preset":"qdan","dice":2,"bonus_values":[6]}}"#;
    let (status, answer) = http(server.addr, "POST", "/api/rooms", Some(body)).await;
    assert_eq!(status, 400, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["code"], "bad_rules");
    assert!(answer["message"].is_string());
    assert_eq!(
        answer["engine"],
        serde_json::json!({
            "code": "bonus_values_with_two_dice",
            "option": "bonus_values",
            "params": {"option": "bonus_values"}
        })
    );
}

#[tokio::test]
async fn a_room_is_refused_for_a_bad_name_clock_or_body() {
    let server = spawn_server().await;
    let device = "a-device-secret-long-enough";
    for (body, code) in [
        (format!(r#"{{"device":"{device}","name":""}}"#), "bad_name"),
        (
            format!(r#"{{"device":"{device}","name":"Ana","clock":45}}"#),
            "bad_message",
        ),
        (
            r#"{"device":"short","name":"Ana"}"#.to_owned(),
            "bad_message",
        ),
        ("{not json".to_owned(), "bad_message"),
        (
            format!(r#"{{"device":"{device}","name":"Ana","rules":{{"turbo":true}}}}"#),
            "bad_message",
        ),
        (
            format!(r#"{{"device":"{device}","name":"Ana","rules":{{"dice":3}}}}"#),
            "bad_rules",
        ),
    ] {
        let (status, answer) = http(server.addr, "POST", "/api/rooms", Some(&body)).await;
        assert_eq!(status, 400, "{body} → {answer}");
        assert!(answer.contains(code), "{body} → {answer}");
    }
}

#[tokio::test]
async fn the_rules_api_serves_the_phrases_clocks_and_name_length_the_server_holds_to() {
    use ludo_server::protocol::{CLOCKS, NAME_MAX_CHARS, PHRASES};
    use serde_json::json;
    let server = spawn_server().await;
    let (status, body) = http(server.addr, "GET", "/api/rules", None).await;
    assert_eq!(status, 200);
    let rules: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(rules["phrases"], json!(PHRASES));
    assert_eq!(rules["clocks"], json!(CLOCKS));
    assert_eq!(rules["clocks"], json!([null, 30, 60]));
    assert_eq!(rules["name_max_chars"], json!(NAME_MAX_CHARS));
    // Every clock served is one a room may be created with; no other is.
    let create = async |name: &str, clock: serde_json::Value| {
        let body = json!({"device": "rules-api-device-0001", "name": name, "clock": clock});
        http(server.addr, "POST", "/api/rooms", Some(&body.to_string())).await
    };
    for clock in rules["clocks"].as_array().unwrap() {
        let (status, body) = create("Ana", clock.clone()).await;
        assert_eq!(status, 201, "{clock}: {body}");
    }
    for clock in [json!(0), json!(45), json!(90)] {
        let (status, body) = create("Ana", clock.clone()).await;
        assert_eq!(status, 400, "{clock}: {body}");
        assert!(body.contains("bad_message"), "{body}");
    }
    // A name of exactly the length served is accepted and one more is refused, counted in
    // Unicode scalar values after trimming and composing: an emoji (two UTF-16 units, four
    // bytes) is one, and so is "é" typed as e and a combining accent.
    let most = rules["name_max_chars"].as_u64().unwrap() as usize;
    for letter in ["x", "\u{1F600}", "e\u{301}", "\u{e9}"] {
        let name = letter.repeat(most);
        let (status, body) = create(&format!("  {name}  "), json!(null)).await;
        assert_eq!(status, 201, "{name}: {body}");
        let (status, body) = create(&format!("{name}{letter}"), json!(null)).await;
        assert_eq!(status, 400, "{name}{letter}: {body}");
        assert!(body.contains("bad_name"), "{body}");
    }
}
