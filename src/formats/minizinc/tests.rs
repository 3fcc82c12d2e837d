use super::answer::*;
use super::boxes::*;

#[test]
fn the_names_length_is_counted_without_making_them() {
    for ranges in [
        vec![(0, 7), (0, 7)],
        vec![(-12, 3)],
        vec![(-120, -95), (8, 11), (1, 1)],
        vec![(95, 1003)],
        vec![(3, 2)],
    ] {
        let made: usize = box_names("place", &ranges).iter().map(String::len).sum();
        assert_eq!(box_names_len("place", &ranges), Some(made), "{ranges:?}");
    }
    assert_eq!(digits_in(i64::MIN, i64::MIN), 20);
    assert_eq!(digits_in(i64::MAX - 1, i64::MAX), 38);
    assert_eq!(box_entries(&[(i64::MIN, i64::MAX)]), None);
    assert_eq!(box_entries(&[(0, 1 << 40), (5, 4)]), Some(0));
}

#[test]
fn answers_read_the_last_solution_and_the_status() {
    let text = "a = 1;\nb = 0;\n----------\na = 0;\nb = 1;\n----------\n==========\n";
    assert_eq!(
        read_answer(text).unwrap(),
        MznStatus::Solution {
            values: vec![("a".into(), "0".into()), ("b".into(), "1".into())],
            complete: true
        }
    );
    assert_eq!(
        read_answer("=====UNSATISFIABLE=====\n").unwrap(),
        MznStatus::Unsatisfiable
    );
    assert_eq!(
        read_answer("% hi\n=====UNKNOWN=====\n").unwrap(),
        MznStatus::Unknown("=====UNKNOWN=====".into())
    );
    assert_eq!(
        read_answer("a = 1;\n").unwrap_err(),
        MznAnswerError::Unfinished
    );
    assert_eq!(
        read_answer("a = 1;\na = 0;\n----------\n")
            .unwrap_err()
            .to_string(),
        "line 2: a is given twice in one solution"
    );
    assert_eq!(
        read_answer("hello\n----------\n").unwrap_err().to_string(),
        "line 1: \"hello\" is not `name = value;`"
    );
    assert!(is_answer("a = 1;\n----------\n"));
    assert!(is_answer("=====UNSATISFIABLE=====\n"));
    assert_eq!(
        read_answer("a = 1;\n_objective = 1;\n----------\n").unwrap(),
        MznStatus::Solution {
            values: vec![("a".into(), "1".into())],
            complete: false
        }
    );
    assert!(is_answer("% cut off\na = 1;\n"));
    assert!(!is_answer("s SATISFIABLE\n"));
    assert!(!is_answer("v 1 -2 0\n"));
}
