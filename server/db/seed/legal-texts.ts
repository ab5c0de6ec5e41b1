/**
 * Textos legales de la tienda en línea de Vida Alcalina (es-PE).
 * Fragmentos HTML sin h1: la página muestra su propio título y la fecha de
 * actualización.
 */

export const termsHtml = `
<h2>1. Identificación del proveedor</h2>
<p>La tienda en línea de <strong>Vida Alcalina</strong> es operada por <strong>{{razon_social}}</strong>, con RUC N.° {{ruc}} y domicilio en {{domicilio_fiscal}} (en adelante, “Vida Alcalina”, “nosotros” o “la empresa”). Correo: <a href="mailto:hola@vidaalcalina.pe">hola@vidaalcalina.pe</a>; WhatsApp: +51 987 654 321.</p>

<h2>2. Aceptación de los términos</h2>
<p>Estos Términos y Condiciones regulan el uso de la tienda en línea y la compra de nuestros productos. Al crear una cuenta o realizar un pedido, usted declara ser mayor de edad y haber leído y aceptado estos términos y nuestra <a href="/privacidad">Política de Privacidad</a>. Nada de lo aquí dispuesto limita los derechos que le reconoce la Ley N.° 29571, Código de Protección y Defensa del Consumidor.</p>

<h2>3. Productos y precios</h2>
<p>Comercializamos agua de mesa alcalina embotellada con pH 8.5, en las presentaciones que se muestran en la tienda, incluidos bidones retornables. Las imágenes son referenciales; el contenido, la presentación y el precio de cada producto se indican en su ficha.</p>
<ul>
<li>Todos los precios se expresan en soles (S/) e <strong>incluyen el Impuesto General a las Ventas (IGV)</strong>.</li>
<li>Se aplica el precio vigente al confirmar el pedido. Los cambios de precios o promociones no afectan los pedidos ya confirmados.</li>
<li>Las promociones tienen la vigencia, el stock y las condiciones que se indiquen en cada caso.</li>
</ul>

<h2>4. Pedido mínimo</h2>
<p>El monto mínimo por pedido es de <strong>S/ 50.00</strong> (IGV incluido).</p>

<h2>5. Tipos de compra y suscripciones</h2>
<p>Puede comprar de dos formas:</p>
<ul>
<li><strong>Compra única:</strong> un pedido individual que se paga al confirmarlo.</li>
<li><strong>Suscripción:</strong> entregas periódicas con descuento sobre el precio regular: <strong>5% en el plan mensual</strong> y <strong>15% en el plan anual</strong>.</li>
</ul>
<h3>5.1 Cobro de las suscripciones</h3>
<p>El importe del plan se cobra al inicio de cada periodo (mensual o anual) con la tarjeta que usted registre. Antes de confirmar verá el monto de cada renovación. La suscripción se renueva automáticamente mientras no la cancele.</p>
<p>Su tarjeta es almacenada de forma segura por nuestro procesador de pagos, <strong>Culqi</strong>. <strong>Vida Alcalina no almacena el número de su tarjeta ni su código de seguridad</strong>; solo conservamos un identificador (token) que permite solicitar el cobro recurrente. Si un cobro es rechazado, le avisaremos para que actualice su medio de pago; mientras tanto, podremos suspender las entregas.</p>
<h3>5.2 Pausar, omitir y cancelar</h3>
<ul>
<li><strong>Pausar:</strong> desde su cuenta. Durante la pausa no se programan entregas ni se realizan cobros.</li>
<li><strong>Omitir una entrega:</strong> desde su cuenta, antes de la fecha límite indicada para esa entrega. Las condiciones aplicables se mostrarán antes de confirmar.</li>
<li><strong>Cancelar:</strong> en cualquier momento, desde su cuenta o escribiéndonos. La cancelación <strong>surte efecto al final del periodo ya pagado</strong>: recibirá las entregas de ese periodo y no habrá nuevos cobros.</li>
</ul>
<p>Si modificamos el precio de un plan, se lo comunicaremos por correo electrónico antes de la siguiente renovación, para que pueda cancelar si no está de acuerdo.</p>

<h2>6. Condiciones de entrega</h2>
<ul>
<li>Entregamos únicamente en los <strong>distritos de Lima atendidos</strong> que se muestran en la tienda.</li>
<li>Cada distrito tiene <strong>días de reparto fijos</strong>, que se indican al comprar.</li>
<li>Puede elegir la franja de <strong>mañana (9:00 a 12:00)</strong> o de <strong>tarde (14:00 a 18:00)</strong>, según disponibilidad.</li>
<li>Los pedidos deben realizarse con <strong>al menos un día de anticipación</strong> a la fecha de entrega.</li>
<li>Debe haber una persona mayor de edad en la dirección indicada para recibir el pedido y, de ser el caso, entregar los bidones vacíos.</li>
<li>Si no es posible entregar (ausencia, dirección incorrecta, fuerza mayor), coordinaremos con usted una nueva fecha.</li>
</ul>
<p>Al recibir el pedido, verifique que esté completo y con el precinto de seguridad intacto, e informe cualquier observación al repartidor o a nuestros canales de contacto.</p>

<h2>7. Bidones retornables</h2>
<p>Los bidones retornables son de propiedad de Vida Alcalina. Con el primer bidón se cobra una <strong>garantía</strong> por el importe indicado en la tienda; en las compras siguientes, el bidón vacío se intercambia por uno lleno sin volver a cobrarla.</p>
<ul>
<li>Conserve el bidón en un lugar limpio, fresco y protegido del sol.</li>
<li>No lo use para guardar sustancias distintas al agua (combustibles, químicos, productos de limpieza), no lo perfore ni retire sus etiquetas.</li>
<li>Puede devolver los bidones que ya no necesite en una entrega. La garantía se reembolsa si el bidón está en buen estado (salvo desgaste normal), no si está roto, perforado o contaminado.</li>
</ul>

<h2>8. Medios de pago</h2>
<p>Los pagos se procesan a través de <strong>Culqi</strong>: tarjetas de crédito y débito, <strong>Yape</strong>, banca móvil, agentes y billeteras digitales, según las opciones disponibles al pagar. Las suscripciones requieren una tarjeta para los cobros recurrentes. Si paga con un código (por ejemplo, en agentes o banca móvil), el pedido se confirma cuando Culqi nos notifica el pago; si no se paga dentro del plazo indicado, el pedido se anula.</p>

<h2>9. Comprobantes de pago electrónicos</h2>
<p>Por cada compra emitimos un comprobante electrónico conforme a las normas de la SUNAT: <strong>boleta de venta electrónica</strong> o, si lo solicita indicando un RUC válido, <strong>factura electrónica</strong>. Elija el tipo de comprobante y registre correctamente sus datos antes de pagar: una vez emitido, solo puede modificarse en los casos que permiten las normas tributarias. El comprobante se enviará a su correo electrónico.</p>

<h2>10. Cambios, devoluciones y reclamos por calidad</h2>
<ul>
<li>Puede <strong>anular un pedido sin costo</strong> antes de que sea despachado; le devolveremos el íntegro de lo pagado por el mismo medio de pago.</li>
<li>Al recibirlo, puede rechazar productos dañados, con el precinto roto o que no correspondan a su pedido.</li>
<li>Por tratarse de un producto de consumo humano, no aceptamos devoluciones de productos abiertos, salvo defectos de calidad.</li>
<li>Si detecta un problema de calidad (sabor, olor, color, partículas), escríbanos con el número de pedido y, de ser posible, fotografías y el lote del envase. Tras verificarlo, repondremos el producto o devolveremos su importe, a su elección.</li>
</ul>
<p>El plazo en que el reembolso se refleja depende de la entidad emisora o del medio de pago utilizado.</p>

<h2>11. Libro de Reclamaciones</h2>
<p>Conforme a la Ley N.° 29571, Código de Protección y Defensa del Consumidor, contamos con un <strong>Libro de Reclamaciones virtual</strong> en nuestra tienda en línea. Un <em>reclamo</em> expresa disconformidad con los productos adquiridos; una <em>queja</em>, malestar respecto de la atención recibida. Le responderemos en un plazo no mayor de quince (15) días hábiles. La presentación de un reclamo no impide acudir a otras vías de solución de controversias ni es requisito previo para presentar una denuncia ante el <a href="https://www.indecopi.gob.pe">Indecopi</a>.</p>

<h2>12. Causas sociales y votaciones</h2>
<p>Los suscriptores pueden elegir una de las organizaciones sociales que figuran en la tienda, a la que Vida Alcalina destinará un aporte en las condiciones informadas. El aporte sale de los recursos de la empresa, no incrementa su precio ni constituye una donación suya. Los usuarios registrados pueden votar por las organizaciones; las votaciones son referenciales y no nos obligan. Podemos incorporar o retirar organizaciones, que son independientes de Vida Alcalina.</p>

<h2>13. Cuentas de usuario</h2>
<p>Debe registrar información verdadera y actualizada, y mantener la confidencialidad de su contraseña; si sospecha un uso no autorizado, avísenos de inmediato. Podemos suspender cuentas con uso fraudulento o contrario a estos términos, sin perjuicio de atender los pedidos ya pagados o devolver su importe.</p>

<h2>14. Propiedad intelectual</h2>
<p>La marca Vida Alcalina, los logotipos, textos, fotografías y demás contenidos de la tienda pertenecen a Vida Alcalina S.A.C. o a sus licenciantes. No está permitido reproducirlos ni usarlos con fines comerciales sin nuestra autorización escrita.</p>

<h2>15. Responsabilidad</h2>
<p>Respondemos por la idoneidad y calidad de nuestros productos en los términos de la ley. No somos responsables por daños derivados del almacenamiento o manipulación inadecuados después de la entrega, del uso indebido de los bidones, ni por interrupciones de la tienda ajenas a nuestro control. Nuestros productos son agua de mesa; no son un medicamento ni sustituyen un tratamiento médico.</p>

<h2>16. Modificaciones</h2>
<p>Podemos actualizar estos términos; la versión vigente estará publicada en <a href="/terminos">esta página</a>. Los cambios no afectan los pedidos ya confirmados y, si son relevantes para su suscripción, se los comunicaremos por correo con anticipación.</p>

<h2>17. Ley aplicable y jurisdicción</h2>
<p>Estos términos se rigen por las leyes del Perú. Las controversias se someterán a los jueces y tribunales de Lima, sin perjuicio del derecho del consumidor de acudir al Indecopi u otras vías legales.</p>

<h2>18. Contacto</h2>
<p>Escríbanos a <a href="mailto:hola@vidaalcalina.pe">hola@vidaalcalina.pe</a>, por WhatsApp al +51 987 654 321 o desde nuestra página de <a href="/contact">contacto</a>.</p>
`;

export const privacyHtml = `
<p>Esta Política explica cómo <strong>Vida Alcalina S.A.C.</strong> trata los datos personales de quienes visitan nuestra tienda en línea, crean una cuenta, compran o se suscriben, de conformidad con la <strong>Ley N.° 29733, Ley de Protección de Datos Personales</strong>, y su Reglamento, aprobado por el <strong>Decreto Supremo N.° 016-2024-JUS</strong>.</p>

<h2>1. Titular y responsable del tratamiento</h2>
<p>El responsable del tratamiento y titular del banco de datos personales de clientes y usuarios es <strong>{{razon_social}}</strong>, con RUC N.° {{ruc}} y domicilio en {{domicilio_fiscal}}. Para cualquier asunto relacionado con sus datos personales puede escribirnos a <a href="mailto:hola@vidaalcalina.pe">hola@vidaalcalina.pe</a>.</p>

<h2>2. Datos personales que recopilamos</h2>
<ul>
<li><strong>Datos de identificación:</strong> nombres y apellidos, y tipo y número de documento de identidad (DNI, carné de extranjería o pasaporte). Si solicita factura, el RUC y la razón social correspondientes.</li>
<li><strong>Datos de contacto:</strong> correo electrónico y número de teléfono o WhatsApp.</li>
<li><strong>Datos de entrega:</strong> dirección, distrito, referencias e indicaciones para el repartidor.</li>
<li><strong>Datos de la cuenta y de compra:</strong> contraseña (cifrada), historial de pedidos y suscripciones, entregas, bidones y garantías, comprobantes, reclamos, y la organización social elegida y sus votos.</li>
<li><strong>Datos de pago:</strong> los pagos son procesados por <strong>Culqi</strong>. Los datos de su tarjeta se ingresan directamente en los formularios seguros del procesador. <strong>Vida Alcalina nunca almacena el número completo de su tarjeta ni su código de seguridad</strong>; solo conservamos el identificador (token) que Culqi nos entrega, la marca y los últimos dígitos de la tarjeta, y el estado de cada pago.</li>
<li><strong>Datos técnicos:</strong> identificadores de sesión, contenido del carrito, pedido en curso, dirección IP y registros necesarios para la seguridad del servicio.</li>
</ul>
<p>No solicitamos datos sensibles. Sin los datos marcados como obligatorios no podremos completar su compra.</p>

<h2>3. Finalidades del tratamiento</h2>
<p>Tratamos sus datos para las siguientes finalidades:</p>
<ol>
<li><strong>Gestionar su cuenta</strong> y permitirle acceder a su historial de pedidos y suscripciones.</li>
<li><strong>Procesar y entregar sus pedidos</strong>: verificar la cobertura de su distrito, programar la entrega y gestionar los bidones retornables y sus garantías.</li>
<li><strong>Cobrar y emitir comprobantes de pago electrónicos</strong> (boletas y facturas) y remitir la información correspondiente a la SUNAT.</li>
<li><strong>Gestionar sus suscripciones</strong>: renovaciones, cobros recurrentes, pausas, entregas omitidas y cancelaciones.</li>
<li><strong>Enviarle comunicaciones de servicio</strong>: confirmaciones de pedido, avisos de entrega, comprobantes, avisos sobre su suscripción y cambios en nuestros términos.</li>
<li><strong>Atender consultas, reclamos y quejas</strong>, incluidas las presentadas en el Libro de Reclamaciones, y gestionar devoluciones y reembolsos.</li>
<li><strong>Gestionar las causas sociales</strong>: registrar la organización elegida por los suscriptores y los votos de los usuarios, y calcular los aportes.</li>
<li><strong>Enviarle recordatorios de carrito abandonado</strong>: si deja productos en su carrito sin completar la compra, podemos enviarle un correo recordándoselo. Cada recordatorio incluye un enlace para dejar de recibirlos.</li>
<li><strong>Proteger la tienda</strong>, prevenir fraudes y cumplir obligaciones legales.</li>
</ol>
<p>No vendemos ni alquilamos sus datos personales.</p>

<h2>4. Base legal</h2>
<ul>
<li>Las finalidades 1 a 6 son necesarias para la preparación, celebración y ejecución de la relación contractual que usted establece con nosotros al comprar o suscribirse.</li>
<li>La emisión de comprobantes, su envío a la SUNAT, la conservación de información tributaria y la atención del Libro de Reclamaciones responden al cumplimiento de obligaciones legales.</li>
<li>Los recordatorios de carrito abandonado y cualquier comunicación promocional se basan en su consentimiento, que puede otorgar al registrarse o al realizar su compra y revocar en cualquier momento, sin que ello afecte sus pedidos.</li>
<li>La gestión de causas sociales y votaciones se basa en su decisión de participar en ellas.</li>
</ul>

<h2>5. Destinatarios de los datos</h2>
<p>Solo compartimos sus datos con terceros cuando es necesario para las finalidades descritas:</p>
<ul>
<li><strong>Culqi</strong>, procesador de pagos, que recibe los datos necesarios para procesar y autorizar los cobros y almacenar de forma segura su tarjeta para las suscripciones.</li>
<li><strong>Personal de reparto</strong>, propio o contratado, que recibe únicamente su nombre, dirección, referencias, teléfono y el detalle del pedido.</li>
<li><strong>Proveedor de envío de correos electrónicos</strong> y proveedores de alojamiento e infraestructura tecnológica, que tratan los datos por nuestra cuenta como encargados.</li>
<li><strong>Proveedor de facturación electrónica</strong>, cuando corresponda, y la <strong>SUNAT</strong>, destinataria de la información de los comprobantes electrónicos.</li>
<li><strong>Autoridades competentes</strong>, como el Indecopi o el Poder Judicial, cuando la ley o un requerimiento válido lo exijan.</li>
</ul>
<p>Nuestros encargados solo tratan sus datos según nuestras instrucciones y bajo deber de confidencialidad. No compartimos sus datos con las organizaciones sociales.</p>

<h2>6. Transferencias internacionales</h2>
<p>Algunos proveedores de correo electrónico, alojamiento o infraestructura pueden tratar datos en servidores fuera del Perú. Ese flujo transfronterizo se realiza conforme a la Ley N.° 29733 y su Reglamento, exigiendo al destinatario niveles de protección adecuados y obligaciones contractuales de seguridad y confidencialidad. Puede solicitarnos información sobre estos proveedores.</p>

<h2>7. Plazos de conservación</h2>
<ul>
<li><strong>Datos de la cuenta:</strong> mientras la cuenta esté activa. Si la elimina o solicita su cancelación, los suprimiremos o bloquearemos, salvo aquellos que debamos conservar por ley.</li>
<li><strong>Pedidos, pagos y comprobantes:</strong> durante el plazo exigido por las normas tributarias y contables, que como regla general se extiende mientras no prescriban las obligaciones correspondientes.</li>
<li><strong>Reclamos y quejas:</strong> como mínimo dos (2) años desde su presentación, según la normativa de protección al consumidor.</li>
<li><strong>Carritos no completados:</strong> solo el tiempo necesario para enviar los recordatorios, tras lo cual se eliminan.</li>
<li><strong>Registros técnicos y de seguridad:</strong> por el tiempo estrictamente necesario para proteger el servicio.</li>
</ul>
<p>Vencidos estos plazos, los datos se eliminan o se anonimizan.</p>

<h2>8. Seguridad</h2>
<p>Aplicamos medidas técnicas, organizativas y legales para proteger sus datos contra pérdida, acceso no autorizado o alteración: conexiones cifradas (HTTPS), contraseñas con cifrado unidireccional, acceso restringido según funciones y tokenización de los pagos a través de Culqi. Si ocurriera un incidente de seguridad que afecte sus datos, lo gestionaremos y le informaremos conforme a la normativa vigente.</p>

<h2>9. Sus derechos (ARCO)</h2>
<p>Como titular de sus datos personales, puede ejercer los derechos de:</p>
<ul>
<li><strong>Acceso:</strong> conocer qué datos suyos tratamos, cómo los obtuvimos y con qué finalidad.</li>
<li><strong>Rectificación:</strong> corregir datos inexactos, incompletos o desactualizados.</li>
<li><strong>Cancelación:</strong> solicitar la supresión de sus datos cuando ya no sean necesarios o haya revocado su consentimiento.</li>
<li><strong>Oposición:</strong> oponerse al tratamiento de sus datos por un motivo legítimo y fundado, o a recibir comunicaciones comerciales.</li>
</ul>
<p>También puede revocar su consentimiento y ejercer los demás derechos que le reconocen la Ley y su Reglamento. Para ello, envíe una solicitud a <a href="mailto:hola@vidaalcalina.pe">hola@vidaalcalina.pe</a> con el asunto “Protección de datos personales”, indicando su nombre, el derecho que desea ejercer y su pedido concreto, y adjuntando copia de su documento de identidad (o del documento que acredite la representación, si actúa por medio de un representante). Atenderemos su solicitud gratuitamente y dentro de los plazos establecidos en la normativa vigente.</p>
<p>Si considera que no hemos atendido debidamente su solicitud, puede presentar una reclamación ante la Autoridad Nacional de Protección de Datos Personales del Ministerio de Justicia y Derechos Humanos.</p>

<h2>10. Cookies y almacenamiento local</h2>
<p>Utilizamos cookies y almacenamiento local del navegador que son <strong>necesarios para el funcionamiento de la tienda</strong>:</p>
<ul>
<li><strong>Sesión:</strong> mantener su sesión iniciada de forma segura.</li>
<li><strong>Carrito:</strong> conservar los productos que agrega mientras navega.</li>
<li><strong>Pedido:</strong> recordar los datos del pedido en curso (dirección, fecha y franja de entrega, tipo de comprobante) durante el proceso de compra.</li>
</ul>
<p>El procesador de pagos puede usar sus propias cookies en el formulario de pago para prevenir fraudes. No utilizamos cookies publicitarias. Puede borrar o bloquear las cookies desde su navegador, aunque la tienda podría no funcionar correctamente.</p>

<h2>11. Menores de edad</h2>
<p>La tienda está dirigida a personas mayores de edad. No recopilamos conscientemente datos de menores de edad; si usted es padre, madre o tutor y advierte que un menor nos ha proporcionado datos personales, escríbanos para eliminarlos.</p>

<h2>12. Cambios en esta política</h2>
<p>Podemos actualizar esta Política; la versión vigente estará publicada en <a href="/privacidad">esta página</a>. Si los cambios son relevantes, se los comunicaremos por correo electrónico o mediante un aviso en la tienda y, cuando la ley lo exija, solicitaremos nuevamente su consentimiento.</p>

<h2>13. Contacto</h2>
<p>Para consultas sobre esta Política, escríbanos a <a href="mailto:hola@vidaalcalina.pe">hola@vidaalcalina.pe</a>, por WhatsApp al +51 987 654 321, desde nuestra página de <a href="/contact">contacto</a> o a Av. José Larco 1232, Miraflores, Lima. Consulte también nuestros <a href="/terminos">Términos y Condiciones</a>.</p>
`;
