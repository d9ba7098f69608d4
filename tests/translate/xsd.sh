# tests/translate/xsd.sh - sourced by run.sh and view.sh: xsd_valid FILE
# validates an XLIFF file against the OASIS XLIFF 2.0 core schema shipped
# here (xmllint's messages in $T/xsd.out).  xmllint resolves the schema's
# import of the W3C xml.xsd to the copy the SCORM templates ship, through a
# catalog written into the current $T, so that validation needs no network.
xsd_valid() {
	[ -f "$T/catalog.xml" ] || cat >"$T/catalog.xml" <<EOF
<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://www.w3.org/2001/xml.xsd" uri="file://$ROOT/templates/scorm/schemas/scorm2004/xml.xsd"/>
</catalog>
EOF
	XML_CATALOG_FILES="$T/catalog.xml" xmllint --nonet --noout \
		--schema "$HERE/xliff_core_2.0.xsd" "$1" >"$T/xsd.out" 2>&1
}
