<?php
// tests/moodlexml/moodle_import.php - Moodle's own importer on a Moodle XML
// file, then each imported calculated question played in every variant.
//
//   php moodle_import.php MOODLE_DIR FILE.xml > result.json
//   php moodle_import.php MOODLE_DIR - < FILE.xml > result.json
//
// MOODLE_DIR is an installed Moodle 4.5 (tests/moodle/setup.sh makes one);
// run it as the web server's user.  The import runs as Moodle's "Import"
// page does (qformat_xml: importpreprocess, importprocess, "Match grades"
// = error, "Stop on error" = yes, category and context from the file) into
// the site course's question bank, inside one database transaction that
// is rolled back at the end, so the site keeps nothing.  Prints JSON:
//   {"ok": bool, "log": "what Moodle printed",
//    "questions": [{"idnumber", "qtype", "name", "category", "variants": N,
//                   "gaps": [each gap's right response] (multianswer),
//                   "draws": [{"values": {name: value}, "questiontext",
//                              "generalfeedback", "answers": [{"answer",
//                              "fraction", "tolerance", "tolerancetype"}],
//                              "right": the correct response}]}]}
// for every imported question (draws only for the calculated types: the
// values Moodle takes from the datasets, its texts with the wildcards and
// formulas replaced, and each answer computed).
define('CLI_SCRIPT', true);
if ($argc < 3) {
    fwrite(STDERR, "usage: php moodle_import.php MOODLE_DIR FILE.xml\n");
    exit(2);
}
require($argv[1] . '/config.php');
require_once($CFG->libdir . '/questionlib.php');
require_once($CFG->dirroot . '/question/format.php');
require_once($CFG->dirroot . '/question/format/xml/format.php');
require_once($CFG->dirroot . '/question/engine/lib.php');

\core\session\manager::set_user(get_admin());
if ($argv[2] === '-') { // the file on stdin (the web server's user may not read the caller's)
    $file = make_request_directory() . '/import.xml';
    file_put_contents($file, file_get_contents('php://stdin'));
} else {
    $file = realpath($argv[2]);
}
$course = get_site();
$context = context_course::instance($course->id);
$transaction = $DB->start_delegated_transaction();
$category = question_make_default_categories([$context]);

$qformat = new qformat_xml();
$qformat->setCategory($category);
$qformat->setContexts([$context]);
$qformat->setCourse($course);
$qformat->setFilename($file);
$qformat->setRealfilename(basename($file));
$qformat->setMatchgrades('error');
$qformat->setCatfromfile(true);
$qformat->setContextfromfile(true);
$qformat->setStoponerror(true);

$result = ['ok' => false, 'log' => '', 'questions' => []];
ob_start();
try {
    $result['ok'] = $qformat->importpreprocess() && $qformat->importprocess() &&
        $qformat->importpostprocess();
} catch (Throwable $e) {
    echo 'EXCEPTION ' . get_class($e) . ': ' . $e->getMessage() . "\n";
    if (!empty($e->debuginfo)) {
        echo $e->debuginfo . "\n";
    }
}
$result['log'] = trim(html_to_text(ob_get_clean(), 0, false));

foreach ($qformat->questionids as $id) {
    try {
        $q = question_bank::load_question($id);
    } catch (Throwable $e) {
        $result['questions'][] = ['id' => $id, 'error' => $e->getMessage()];
        continue;
    }
    $one = ['idnumber' => $q->idnumber, 'qtype' => $q->qtype->name(),
        'name' => $q->name, 'category' => $DB->get_field('question_categories', 'name', ['id' => $q->category]),
        'variants' => $q->get_num_variants(), 'draws' => []];
    if ($q->qtype->name() === 'multianswer') {
        // each gap's right answer (a draw of a parameterised cloze question)
        $one['gaps'] = [];
        foreach ($q->subquestions as $sub) {
            $right = $sub->get_correct_response();
            $one['gaps'][] = reset($right);
        }
    }
    if (strpos($q->qtype->name(), 'calculated') === 0) {
        for ($v = 1; $v <= $q->get_num_variants(); $v++) {
            $qv = question_bank::load_question($id);
            $qv->start_attempt(new question_attempt_step(), $v);
            $answers = [];
            foreach ($qv->answers as $a) {
                $answers[] = ['answer' => $a->answer, 'fraction' => (float)$a->fraction,
                    'tolerance' => isset($a->tolerance) ? $a->tolerance : null,
                    'tolerancetype' => isset($a->tolerancetype) ? $a->tolerancetype : null,
                    'feedback' => $a->feedback];
            }
            $draw = ['values' => $qv->vs->get_values(), 'questiontext' => $qv->questiontext,
                'generalfeedback' => $qv->generalfeedback, 'answers' => $answers,
                'right' => $qv->get_correct_response()];
            if ($q->qtype->name() === 'calculated' || $q->qtype->name() === 'calculatedsimple') {
                // What Moodle's grading says of the right value and of values
                // just inside and outside the tolerance.
                $right = $qv->get_correct_answer();
                $draw['grade_right'] = $qv->grade_response(['answer' => (string)$right->answer])[0];
                [$lo, $hi] = $right->get_tolerance_interval();
                $draw['interval'] = [$lo, $hi];
            }
            $one['draws'][] = $draw;
        }
    }
    $result['questions'][] = $one;
}
$DB->force_transaction_rollback();
echo json_encode($result, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
