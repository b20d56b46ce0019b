//! The Events table (`DescribeEvents` in kubectl's `describe.go`).

use jiff::Timestamp;

use crate::EventSummary;

use super::Layout;
use super::gosort::go_sort;
use super::out::{Out, clean};

/// `Events:\t<none>`, or the `Type Reason Age From Message` table, oldest first.
///
/// Order: kubectl sorts by the `lastTimestamp` field ascending (an event with only `eventTime`
/// has the zero time and comes first) with Go's `sort.Sort`: up to 12 events an insertion sort
/// (equal times keep the API's list order, by name), beyond that a pattern-defeating quicksort
/// that moves equal times in its own way, reproduced by [`go_sort`] from the same input order.
/// Age: [`EventSummary::age_text`] (`3m (x5 over 10m)` for a repeated event). From: the
/// event's source component, else its reporting controller. Message: trimmed of surrounding
/// whitespace and printed raw as kubectl does, so a multi-line message continues on lines of
/// its own (which end the table's column block, realigning the rows after it): the `␊` that
/// [`EventSummary`] carries for each line break becomes `\n` again. After kubectl 1.33
/// ([`Layout`]) the message follows the event's `fieldPath` and `: ` when it has one.
pub(super) fn describe(o: &mut Out, events: &[EventSummary], now: Timestamp, layout: Layout) {
    if events.is_empty() {
        o.w(0, "Events:\t<none>\n");
        return;
    }
    let mut sorted: Vec<&EventSummary> = events.iter().collect();
    go_sort(&mut sorted, |a, b| {
        a.last_timestamp_field < b.last_timestamp_field
    });
    o.w(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    o.w(1, "----\t------\t----\t----\t-------\n");
    for e in sorted {
        let message = clean(&e.message).replace('\u{240a}', "\n");
        let message = message.trim();
        let message = if layout.kubectl_minor >= 34 && !e.field_path.is_empty() {
            format!("{}: {message}", e.field_path)
        } else {
            message.to_string()
        };
        o.w(
            1,
            &format!(
                "{}\t{}\t{}\t{}\t{}\n",
                clean(&e.type_),
                clean(&e.reason),
                e.age_text(now),
                clean(&e.source),
                message
            ),
        );
    }
}
