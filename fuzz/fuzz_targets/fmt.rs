//! Any bytes as a rule file laid out by `paradox fmt`: the layout must not fail on a file that
//! parses, must parse again, and must be its own layout (formatting twice changes nothing).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parses = paradox::syntax::parse(text).is_ok();
    let Ok(formatted) = paradox::format::format(text) else {
        assert!(!parses, "a file that parses is formatted");
        return;
    };
    if parses {
        assert!(paradox::syntax::parse(&formatted).is_ok(), "the layout of a file that parses parses:\n{formatted}");
    }
    match paradox::format::format(&formatted) {
        Ok(again) => assert_eq!(again, formatted, "formatting twice changes nothing"),
        Err(_) => panic!("the layout of a file formats again:\n{formatted}"),
    }
});
