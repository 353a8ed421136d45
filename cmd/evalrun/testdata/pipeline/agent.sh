# The pipeline test's agent: alpha breaks in the regressed revision, beta
# is wrong in every revision (a known bug), gamma is always right.
in=$(cat)
case "$in" in
  *alpha*)
    if [ "$PIPELINE_REVISION" = regressed ]; then echo 'Alpha is last.'; else echo 'Alpha is first.'; fi ;;
  *beta*) echo 'Beta is fourth.' ;;
  *) echo 'Gamma is third.' ;;
esac
