"""bench/context_workloads.py: the conversational workload's answer key."""

import pytest

from bench_modules import load_bench


@pytest.fixture(scope="module")
def workloads():
    return load_bench("context_workloads.py", "bench_context_workloads")


def test_a_question_is_answered_by_its_own_action_with_its_names(workloads):
    events = [
        "Alice bought a guitar in Lisbon.",
        "Alice bought a camera in Lisbon.",
        "Alice bought a guitar in Porto.",  # another place
        "Bruno bought a guitar in Lisbon.",  # another person
        "Alice lost a guitar on the way to Lisbon.",  # another action
        "Carla taught Nadia to play the harp in Krakow.",
        "Nadia started learning the harp with a teacher from Oslo.",
    ]
    questions = [
        "What did Alice buy in Lisbon?",
        # Also fits "Who taught {a} the {thing}?" with "harp in Krakow" as
        # the thing: only the template whose slots are real words counts.
        "Who taught Nadia the harp in Krakow?",
        "Who taught Nadia the harp?",
        "What did Zoe buy in Lima?",  # nobody did: left out
        "Not a question of the workload",
    ]
    answers = workloads.conversational_answers(events, questions)
    assert answers == {
        "What did Alice buy in Lisbon?": {
            "Alice bought a guitar in Lisbon.",
            "Alice bought a camera in Lisbon.",
        },
        "Who taught Nadia the harp in Krakow?": {"Carla taught Nadia to play the harp in Krakow."},
        "Who taught Nadia the harp?": {"Nadia started learning the harp with a teacher from Oslo."},
    }


def test_the_generated_workload_has_answerable_questions(workloads):
    events = [text for _, text in workloads.conversational_events(2_000)]
    questions = workloads.conversational_questions(200)
    answers = workloads.conversational_answers(events, questions)
    assert 0 < len(answers) < len(questions)
    assert all(found <= set(events) for found in answers.values())
