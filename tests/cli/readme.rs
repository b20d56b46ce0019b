//! The README's promises that code can check: every built-in scenario the simulator accepts
//! (`podscope::sim::builtin_scenarios`) has a row in the README's scenario table, and no row
//! names a scenario that does not exist.

const README: &str = include_str!("../../README.md");

/// The names in the first column of the table headed `| name | pod | what happens |`.
fn table_names() -> Vec<String> {
    README
        .lines()
        .skip_while(|l| !l.starts_with("| name | pod | what happens |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1))
        .map(|c| c.trim().trim_matches('`').to_owned())
        .collect()
}

#[test]
fn the_readme_lists_every_built_in_scenario() {
    let builtin: Vec<String> = podscope::sim::builtin_scenarios()
        .into_iter()
        .map(|(name, _)| name.to_owned())
        .collect();
    assert!(builtin.contains(&"crash".to_owned()), "{builtin:?}");
    assert_eq!(
        table_names(),
        builtin,
        "README.md's scenario table, in order"
    );
}
