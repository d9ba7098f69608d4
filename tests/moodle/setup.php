<?php
// tests/moodle/setup.php - run by setup.sh inside a Moodle 4.5 tree
// (php admin/cli/../../setup.php is not needed: setup.sh copies nothing
// into Moodle; it runs `php tests/moodle/setup.php MOODLE_DIR PACKAGE`).
// Creates, once, what tests/moodle/live.mjs drives: a course "PHONE", a
// student and a teacher enrolled in it, and one SCORM activity per way of
// showing the package, all from the same qbc SCORM 1.2 package:
//   phone-cw   the README's recipe, current window (Skip: Always)
//   phone-nw   the README's recipe, new window (Skip: Never, Enter button)
//   old-nw     the earlier recipe (new window, Skip: Always): the case
//              a pop-up blocker stops
//   default    Moodle's defaults (current window, table of contents beside)
// and, with --css, the site's custom SCSS the README gives admins.
// Re-running it replaces the activities (same idnumbers) and keeps users.
define('CLI_SCRIPT', true);
if ($argc < 3) {
    fwrite(STDERR, "usage: php setup.php MOODLE_DIR PACKAGE.zip [--css]\n");
    exit(2);
}
require($argv[1] . '/config.php');
require_once($CFG->dirroot . '/course/lib.php');
require_once($CFG->dirroot . '/course/modlib.php');
require_once($CFG->dirroot . '/user/lib.php');
require_once($CFG->dirroot . '/mod/scorm/locallib.php');
require_once($CFG->dirroot . '/lib/enrollib.php');

$package = realpath($argv[2]);
$withcss = in_array('--css', $argv, true);
\core\session\manager::set_user(get_admin());

// What README.md tells admins to paste into Site administration >
// Appearance > Themes > Boost > Advanced settings > Raw SCSS: on the SCORM
// player page only and on a phone-sized screen, Moodle's page header,
// activity header, course index button, footer "?" button and table of
// contents toggle and footer hidden, and the frame as tall as the rest of
// the screen under the top bar and "Exit activity" (Moodle makes it at
// least 680 px).
const QBC_SCSS = <<<'SCSS'
/* qbc: SCORM player full screen on phones */
@media (max-width: 767.98px) {
  #page-mod-scorm-player #page-header, #page-mod-scorm-player .activity-header,
  #page-mod-scorm-player .drawer-toggles, #page-mod-scorm-player .btn-footer-popover,
  #page-mod-scorm-player #scorm_toc_toggle,
  #page-mod-scorm-player #page-footer { display: none !important; }
  #page-mod-scorm-player #page, #page-mod-scorm-player #topofscroll,
  #page-mod-scorm-player #region-main { padding: 0 !important; margin-top: 0; }
  html:has(#page-mod-scorm-player.pagelayout-incourse) { overflow: hidden; }
  #page-mod-scorm-player.pagelayout-incourse #page { margin-top: 60px; }
  #page-mod-scorm-player #scorm_layout { margin: 0; height: calc(100dvh - 106px) !important; }
  #page-mod-scorm-player.pagelayout-embedded #scorm_layout { height: calc(100dvh - 1px) !important; }
  #page-mod-scorm-player #scorm_content { width: 100% !important; }
}
SCSS;
if ($withcss) {
    $scss = (string)get_config('theme_boost', 'scss');
    $scss = preg_replace('~/\* qbc: SCORM player.*~s', '', $scss);
    set_config('scss', rtrim($scss . "\n" . QBC_SCSS) . "\n", 'theme_boost');
    theme_reset_all_caches();
}

function qbc_user(string $username, string $first, string $last): stdClass {
    global $DB, $CFG;
    if ($u = $DB->get_record('user', ['username' => $username, 'mnethostid' => $CFG->mnet_localhost_id])) {
        return $u;
    }
    $id = user_create_user((object)['username' => $username, 'password' => 'Qbc-test-1',
        'firstname' => $first, 'lastname' => $last, 'email' => "$username@example.com",
        'auth' => 'manual', 'confirmed' => 1, 'mnethostid' => $CFG->mnet_localhost_id], true, false);
    return $DB->get_record('user', ['id' => $id]);
}
$student = qbc_user('student', 'Amina', 'Learner');
$teacher = qbc_user('teacher', 'Baraka', 'Teacher');

if (!$course = $DB->get_record('course', ['shortname' => 'PHONE'])) {
    $course = create_course((object)['fullname' => 'Phone course', 'shortname' => 'PHONE',
        'category' => $DB->get_field_select('course_categories', 'MIN(id)', '1=1'), 'format' => 'topics',
        'numsections' => 1]);
}
$plugin = enrol_get_plugin('manual');
$instance = $DB->get_record('enrol', ['courseid' => $course->id, 'enrol' => 'manual'], '*', MUST_EXIST);
$plugin->enrol_user($instance, $student->id, $DB->get_field('role', 'id', ['shortname' => 'student']));
$plugin->enrol_user($instance, $teacher->id, $DB->get_field('role', 'id', ['shortname' => 'editingteacher']));

$common = ['width' => 100, 'height' => 100, 'displaycoursestructure' => 0, 'displayattemptstatus' => 0,
    'hidetoc' => SCORM_TOC_DISABLED, 'nav' => SCORM_NAV_DISABLED, 'skipview' => SCORM_SKIPVIEW_ALWAYS];
$variants = [
    // a later visit starts a new attempt (else Moodle opens the finished
    // one in its review mode: the results, nothing to answer)
    'phone-cw' => ['Quiz (phone, this window)', ['popup' => 0,
        'forcenewattempt' => SCORM_FORCEATTEMPT_ONCOMPLETE] + $common],
    'phone-nw' => ['Quiz (phone, new window)', ['popup' => 1, 'skipview' => SCORM_SKIPVIEW_NEVER,
        'forcenewattempt' => SCORM_FORCEATTEMPT_ONCOMPLETE] + $common],
    'old-nw' => ['Quiz (earlier recipe)', ['popup' => 1, 'hidetoc' => SCORM_TOC_HIDDEN] + $common],
    'default' => ['Quiz (Moodle defaults)', ['popup' => 0, 'width' => 100, 'height' => 500,
        'skipview' => SCORM_SKIPVIEW_FIRST, 'hidetoc' => SCORM_TOC_SIDE, 'nav' => SCORM_NAV_UNDER_CONTENT,
        'displaycoursestructure' => 0, 'displayattemptstatus' => 1]],
];
$fs = get_file_storage();
$usercontext = context_user::instance($USER->id);
foreach ($variants as $idnumber => [$name, $settings]) {
    if ($cm = $DB->get_record('course_modules', ['course' => $course->id, 'idnumber' => $idnumber])) {
        course_delete_module($cm->id);
    }
    $draft = file_get_unused_draft_itemid();
    $fs->create_file_from_pathname(['contextid' => $usercontext->id, 'component' => 'user',
        'filearea' => 'draft', 'itemid' => $draft, 'filepath' => '/', 'filename' => basename($package)], $package);
    $info = (object)array_merge([
        'modulename' => 'scorm', 'module' => $DB->get_field('modules', 'id', ['name' => 'scorm']),
        'course' => $course->id, 'section' => 1, 'visible' => 1, 'visibleoncoursepage' => 1,
        'name' => $name, 'cmidnumber' => $idnumber,
        'introeditor' => ['text' => '', 'format' => FORMAT_HTML, 'itemid' => 0],
        'scormtype' => SCORM_TYPE_LOCAL, 'packagefile' => $draft, 'updatefreq' => SCORM_UPDATE_NEVER,
        'maxgrade' => 100, 'grademethod' => GRADEHIGHEST, 'whatgrade' => 0, 'maxattempt' => 0,
        'forcecompleted' => 0, 'forcenewattempt' => SCORM_FORCEATTEMPT_NO, 'lastattemptlock' => 0,
        'hidebrowse' => 1, 'auto' => 0, 'masteryoverride' => 1, 'navpositionleft' => -100, 'navpositiontop' => -100,
        'resizable' => 1, 'scrollbars' => 1, 'directories' => 0, 'location' => 0, 'menubar' => 0, 'toolbar' => 0,
        'status' => 0, 'completion' => 0,
    ], $settings);
    $info = create_module($info);
    echo "$idnumber {$info->coursemodule}\n";
}
echo "course {$course->id}\n";
